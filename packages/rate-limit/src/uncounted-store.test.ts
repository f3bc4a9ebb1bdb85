import { describe, expect, it } from 'vitest';
import { apiLimits } from './api-limits.js';
import { manualClock } from './clock.js';
import { policyLimit } from './policy.js';
import { createServerLimiter } from './server-limiter.js';
import { UncountedStore } from './uncounted-store.js';

const start = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('UncountedStore', () => {
  it('admits the 41st call of a minute under the collection limit of 40, with the headers of a first call', async () => {
    const limiter = createServerLimiter({
      api: 'collection',
      store: new UncountedStore(manualClock(start).now),
    });
    for (let i = 0; i < 40; i++) await limiter.take('203.0.113.7');
    const fortyFirst = await limiter.take('203.0.113.7');
    expect(fortyFirst).toMatchObject({ allowed: true, status: 200 });
    expect(fortyFirst.headers).toEqual({
      'X-RateLimit-Limit': '40',
      'X-RateLimit-Remaining': '39',
      'X-Api-Call-Limit': '1/40',
    });
  });

  it('answers with each API policy’s own limit (leaky bucket, token bucket)', async () => {
    const store = new UncountedStore(manualClock(start).now);
    for (const api of ['admin', 'analytics'] as const) {
      const decision = await store.decide('mall-1', apiLimits[api].policy, undefined, 1);
      const capacity = policyLimit(apiLimits[api].policy);
      expect(decision).toMatchObject({ allowed: true, limit: capacity, used: 1, remaining: capacity - 1 });
    }
  });

  it('still rejects a cost above the whole limit as the other stores do (invalid_cost)', async () => {
    const store = new UncountedStore(manualClock(start).now);
    await expect(store.decide('mall-1', apiLimits.collection.policy, undefined, 41)).rejects.toMatchObject({
      code: 'invalid_cost',
    });
  });

  it('forgets what a server reported: a peek after observing 0 remaining still has the full limit', async () => {
    const store = new UncountedStore(manualClock(start).now);
    await store.observe('mall-1', apiLimits.collection.policy, 0);
    expect(await store.peek('mall-1', apiLimits.collection.policy)).toMatchObject({
      allowed: true,
      remaining: 40,
      used: 0,
    });
  });
});
