import { describe, expect, it } from 'vitest';
import { type ApiLimit, apiLimits } from './api-limits.js';
import { manualClock } from './clock.js';
import { RateLimitError } from './errors.js';
import { MemoryStore } from './memory-store.js';
import { createServerLimiter, type LimitResult } from './server-limiter.js';

const start = Date.UTC(2025, 0, 1, 12, 0, 0);

async function takeMany(take: () => Promise<LimitResult>, count: number): Promise<LimitResult[]> {
  const results: LimitResult[] = [];
  for (let i = 0; i < count; i++) results.push(await take());
  return results;
}

describe('createServerLimiter', () => {
  describe('collection API (sliding log, 40 in any minute per client IP)', () => {
    it('sends X-RateLimit-Limit, X-RateLimit-Remaining and X-Api-Call-Limit on every admitted call', async () => {
      const clock = manualClock(start + 1_000);
      const limiter = createServerLimiter({ api: 'collection', clock: clock.now });
      const results = await takeMany(() => limiter.take('203.0.113.7'), 40);
      expect(results[0]).toMatchObject({ allowed: true, status: 200 });
      expect(results[0]?.headers).toEqual({
        'X-RateLimit-Limit': '40',
        'X-RateLimit-Remaining': '39',
        'X-Api-Call-Limit': '1/40',
      });
      expect(results[39]?.headers).toEqual({
        'X-RateLimit-Limit': '40',
        'X-RateLimit-Remaining': '0',
        'X-Api-Call-Limit': '40/40',
      });
      expect(results.every((r) => r.body === undefined && r.retryAfterSeconds === undefined)).toBe(true);
    });

    it('refuses the 41st call with 429, Retry-After in whole seconds and the error envelope', async () => {
      const clock = manualClock(start + 1_000);
      const limiter = createServerLimiter({ api: 'collection', clock: clock.now });
      await takeMany(() => limiter.take('203.0.113.7'), 40);
      clock.advance(1_500);
      const refused = await limiter.take('203.0.113.7');
      expect(refused).toMatchObject({ allowed: false, status: 429, retryAfterSeconds: 59 });
      expect(refused.headers).toEqual({
        'X-RateLimit-Limit': '40',
        'X-RateLimit-Remaining': '0',
        'X-Api-Call-Limit': '40/40',
        'Retry-After': '59',
      });
      expect(JSON.parse(JSON.stringify(refused.body))).toEqual({
        error: {
          code: 'too_many_requests',
          message: 'Too many requests: the limit is 40. Retry after 59 seconds.',
          more_info: { limit: 40, retry_after: 59 },
        },
      });
    });

    it('rounds Retry-After up and never sends less than 1 second', async () => {
      const clock = manualClock(start);
      const limiter = createServerLimiter({ api: 'collection', clock: clock.now });
      await takeMany(() => limiter.take('ip'), 40);
      clock.advance(59_999);
      const refused = await limiter.take('ip');
      expect(refused.decision.retryAfterMs).toBe(1);
      expect(refused.headers['Retry-After']).toBe('1');
      expect(refused.body?.error.message).toBe('Too many requests: the limit is 40. Retry after 1 second.');
      clock.advance(1);
      expect((await limiter.take('ip')).headers['X-Api-Call-Limit']).toBe('1/40');
    });

    it('counts each client IP on its own', async () => {
      const limiter = createServerLimiter({ api: 'collection', clock: () => start });
      await takeMany(() => limiter.take('198.51.100.1'), 40);
      expect((await limiter.take('198.51.100.2')).headers['X-RateLimit-Remaining']).toBe('39');
    });
  });

  describe('admin API (leaky bucket of 40 draining 2 per second, per mall)', () => {
    it('sends X-Api-Call-Limit with the bucket level after the call, rounded up', async () => {
      const clock = manualClock(start);
      const limiter = createServerLimiter({ api: 'admin', clock: clock.now });
      const first = await limiter.take('mall-1');
      expect(first.headers).toEqual({ 'X-Api-Call-Limit': '1/40' });
      await takeMany(() => limiter.take('mall-1'), 9);
      clock.advance(1_250); // 2.5 calls drained: 7.5, plus this call 8.5
      expect((await limiter.take('mall-1')).headers).toEqual({ 'X-Api-Call-Limit': '9/40' });
    });

    it('refuses the call that would overflow, then admits 2 per second', async () => {
      const clock = manualClock(start);
      const limiter = createServerLimiter({ api: 'admin', clock: clock.now });
      const burst = await takeMany(() => limiter.take('mall-1'), 40);
      expect(burst.every((r) => r.allowed)).toBe(true);
      const refused = await limiter.take('mall-1');
      expect(refused).toMatchObject({ status: 429, retryAfterSeconds: 1 });
      expect(refused.headers).toEqual({ 'X-Api-Call-Limit': '40/40', 'Retry-After': '1' });
      expect(refused.body?.error.more_info).toEqual({ limit: 40, retry_after: 1 });
      clock.advance(500);
      expect(await limiter.take('mall-1')).toMatchObject({
        status: 200,
        headers: { 'X-Api-Call-Limit': '40/40' },
      });
      expect((await limiter.take('mall-1')).status).toBe(429);
    });
  });

  describe('analytics API (token bucket, burst 10, one token every 2 s)', () => {
    it('sends remaining tokens, requested tokens, burst capacity and replenish rate 0.5 per second', async () => {
      const limiter = createServerLimiter({ api: 'analytics', clock: () => start });
      expect((await limiter.take('app')).headers).toEqual({
        'X-RateLimit-Remaining': '9',
        'X-RateLimit-Requested-Tokens': '1',
        'X-RateLimit-Burst-Capacity': '10',
        'X-RateLimit-Replenish-Rate': '0.5',
      });
    });

    it('refuses the 11th call of a burst with Retry-After 2', async () => {
      const clock = manualClock(start);
      const limiter = createServerLimiter({ api: 'analytics', clock: clock.now });
      await takeMany(() => limiter.take('app'), 10);
      const refused = await limiter.take('app');
      expect(refused).toMatchObject({ status: 429, retryAfterSeconds: 2 });
      expect(refused.headers).toEqual({
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Requested-Tokens': '1',
        'X-RateLimit-Burst-Capacity': '10',
        'X-RateLimit-Replenish-Rate': '0.5',
        'Retry-After': '2',
      });
      expect(refused.body?.error).toMatchObject({
        code: 'too_many_requests',
        more_info: { limit: 10, retry_after: 2 },
      });
      clock.advance(2_000);
      expect((await limiter.take('app')).status).toBe(200);
    });

    it('reports a multi-token request in X-RateLimit-Requested-Tokens', async () => {
      const limiter = createServerLimiter({ api: 'analytics', clock: () => start });
      expect((await limiter.take('app', 3)).headers).toMatchObject({
        'X-RateLimit-Remaining': '7',
        'X-RateLimit-Requested-Tokens': '3',
      });
    });
  });

  it('lets the three APIs share one store without their keys colliding', async () => {
    const store = new MemoryStore();
    const collection = createServerLimiter({ api: 'collection', store, clock: () => start });
    const analytics = createServerLimiter({ api: 'analytics', store, clock: () => start });
    await takeMany(() => analytics.take('same-key'), 10);
    expect((await analytics.take('same-key')).status).toBe(429);
    expect((await collection.take('same-key')).status).toBe(200);
  });

  it('accepts a custom policy with its own header table', async () => {
    const custom: ApiLimit = {
      name: 'reports',
      policy: { kind: 'fixed-window', limit: 2, windowMs: 1_000 },
      headers: { 'RateLimit-Limit': 'limit', 'RateLimit-Policy-Rate': 'refill-per-second' },
    };
    const limiter = createServerLimiter({ api: custom, clock: () => start });
    expect((await limiter.take('x')).headers).toEqual({
      'RateLimit-Limit': '2',
      'RateLimit-Policy-Rate': '2',
    });
    expect(limiter.api).toBe(custom);
    expect(createServerLimiter({ api: 'admin' }).api).toBe(apiLimits.admin);
  });

  it('refuses to build a limiter for an unusable policy', () => {
    const broken: ApiLimit = {
      name: 'broken',
      policy: { kind: 'fixed-window', limit: 0, windowMs: 1 },
      headers: {},
    };
    expect(() => createServerLimiter({ api: broken })).toThrow(RateLimitError);
  });
});
