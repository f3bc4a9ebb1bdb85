import { apiNames, loadSpecSync } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { apiLimitFromSpec, apiLimits, checkRateLimitExtension } from './api-limits.js';
import { createRateLimitMiddleware } from './client-scheduler.js';
import { manualClock } from './clock.js';
import { RateLimitError } from './errors.js';
import { createServerLimiter } from './server-limiter.js';

const start = Date.UTC(2025, 0, 1, 12, 0, 0);

/** A deep copy of an API's bundled document, safe to change. */
const specCopy = (api: (typeof apiNames)[number]) => structuredClone(loadSpecSync(api).document);

describe('apiLimitFromSpec', () => {
  it.each(apiNames)('derives the same limit from the %s bundle as the generated table', (api) => {
    const { countedPer, ...derived } = apiLimitFromSpec(loadSpecSync(api).document, api);
    expect(derived).toEqual(apiLimits[api]);
    expect(countedPer).toBe(api === 'collection' ? 'client-ip' : 'mall');
  });

  it('reads the seeds’ limits from the specs', () => {
    expect(apiLimits.collection).toMatchObject({
      policy: { kind: 'sliding-log', limit: 40, windowMs: 60_000 },
      headers: { 'X-Api-Call-Limit': 'used/limit', 'X-RateLimit-Remaining': 'remaining' },
    });
    expect(apiLimits.admin).toMatchObject({
      policy: { kind: 'leaky-bucket', capacity: 40, leakPerSecond: 2 },
    });
    expect(apiLimits.analytics).toMatchObject({
      policy: { kind: 'token-bucket', capacity: 10, refillIntervalMs: 2_000 },
      headers: { 'X-RateLimit-Replenish-Rate': 'refill-per-second' },
    });
  });

  it('follows a limit changed in a copy of a spec: the policy, the server limiter and the client scheduler', async () => {
    const document = specCopy('collection');
    Object.assign(document['x-rate-limit'] as object, { limit: 3, 'window-seconds': 10 });
    const api = apiLimitFromSpec(document, 'collection');
    expect(api.policy).toEqual({ kind: 'sliding-log', limit: 3, windowMs: 10_000 });

    const clock = manualClock(start);
    const server = createServerLimiter({ api, clock: clock.now });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await server.take('ip')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    const client = createRateLimitMiddleware({ api, clock: clock.now, sleep: clock.sleep });
    const answering = createServerLimiter({ api, clock: clock.now });
    for (let i = 0; i < 3; i++) {
      const request = new Request('https://collection.example/api/shops');
      const params = { request, schemaPath: '/api/shops', params: {}, id: String(i), options: {} };
      await client.onRequest(params as never);
      const { status, headers } = await answering.take('ip');
      await client.onResponse({ ...params, response: new Response('{}', { status, headers }) } as never);
    }
    expect(await client.timeUntilAdmitted()).toBe(10_000);
  });

  it('follows a changed algorithm: a fixed window in the spec gives a fixed-window policy', () => {
    const document = specCopy('collection');
    Object.assign(document['x-rate-limit'] as object, { algorithm: 'fixed-window' });
    expect(apiLimitFromSpec(document, 'collection').policy.kind).toBe('fixed-window');
  });

  it('refuses a spec without a usable x-rate-limit with an invalid_policy error', () => {
    for (const api of apiNames)
      expect(checkRateLimitExtension(loadSpecSync(api).document['x-rate-limit'], api)).toBe(undefined);
    const document = specCopy('admin');
    delete document['x-rate-limit'];
    expect(() => apiLimitFromSpec(document, 'admin')).toThrow(RateLimitError);
    const valid = structuredClone(loadSpecSync('admin').document['x-rate-limit']) as Record<string, unknown>;
    for (const broken of [
      { ...valid, algorithm: 'guesswork' },
      { ...valid, capacity: 0 },
      { ...valid, 'drain-per-second': '2' },
      { ...valid, 'counted-per': 'planet' },
      { ...valid, headers: { 'X-Api-Call-Limit': 'mood' } },
    ]) {
      expect(checkRateLimitExtension(broken, 'admin')?.code).toBe('invalid_policy');
      expect(() => apiLimitFromSpec({ 'x-rate-limit': broken }, 'admin')).toThrow(
        expect.objectContaining({ code: 'invalid_policy' }),
      );
    }
  });
});
