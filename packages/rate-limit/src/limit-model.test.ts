import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AlgorithmMemoryStore } from './algorithm-memory-store.js';
import { fixedWindow } from './algorithms/fixed-window.js';
import { leakyBucket } from './algorithms/leaky-bucket.js';
import { slidingLog } from './algorithms/sliding-log.js';
import { tokenBucket } from './algorithms/token-bucket.js';
import { type ApiName, apiLimits } from './api-limits.js';
import { createRateLimitMiddleware } from './client-scheduler.js';
import { manualClock } from './clock.js';
import { adminLimitModel } from './generated/admin-limit.js';
import { analyticsLimitModel } from './generated/analytics-limit.js';
import { collectionLimitModel } from './generated/collection-limit.js';
import { type ApiLimitModel, limitModel } from './limit-model.js';
import { MemoryStore } from './memory-store.js';
import { createModelScheduler } from './model-scheduler.js';
import { checkPolicy, type LimitAlgorithm, type LimitPolicy, policyLimit } from './policy.js';
import type { FetchLike } from './request-sender.js';
import { createServerLimiter } from './server-limiter.js';

const start = Date.UTC(2025, 0, 1, 12, 0, 0);

const models: Record<ApiName, ApiLimitModel> = {
  collection: collectionLimitModel,
  admin: adminLimitModel,
  analytics: analyticsLimitModel,
};
const algorithmOfKind: Record<LimitPolicy['kind'], unknown> = {
  'sliding-log': slidingLog,
  'fixed-window': fixedWindow,
  'leaky-bucket': leakyBucket,
  'token-bucket': tokenBucket,
};
const apis = Object.keys(models) as ApiName[];

describe('the generated limit models', () => {
  it.each(apis)('the %s model is the API limit of the table, run by the algorithm of its kind', (api) => {
    const { algorithm, ...limit } = models[api];
    expect(limit).toEqual(apiLimits[api]);
    expect(algorithm).toBe(algorithmOfKind[limit.policy.kind]);
    expect(checkPolicy(limit.policy)).toBe(undefined);
  });

  it('limitModel pairs the policy an extension states with the algorithm it is given', () => {
    const model = limitModel(
      { algorithm: 'fixed-window', limit: 5, 'window-seconds': 2, headers: { 'X-Used': 'used/limit' } },
      'reports',
      fixedWindow,
    );
    expect(model).toEqual({
      name: 'reports',
      policy: { kind: 'fixed-window', limit: 5, windowMs: 2_000 },
      headers: { 'X-Used': 'used/limit' },
      algorithm: fixedWindow,
    });
  });
});

describe('AlgorithmMemoryStore', () => {
  const step = fc.record({
    gap: fc.integer({ min: 0, max: 3_000 }),
    op: fc.constantFrom('decide', 'peek', 'observe'),
    cost: fc.integer({ min: 0, max: 3 }),
    remaining: fc.integer({ min: 0, max: 45 }),
  });

  it.each(apis)(
    'run by the %s model’s algorithm alone, answers every call as the four-algorithm MemoryStore',
    async (api) => {
      const { policy, algorithm } = models[api];
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
          const single = new AlgorithmMemoryStore(algorithm);
          const every = new MemoryStore();
          let at = start;
          for (const { gap, op, cost, remaining } of steps) {
            at += gap;
            const units = Math.min(cost, policyLimit(policy));
            const [mine, theirs] =
              op === 'observe'
                ? [
                    await single.observe('k', policy, remaining, at),
                    await every.observe('k', policy, remaining, at),
                  ]
                : [await single[op]('k', policy, at, units), await every[op]('k', policy, at, units)];
            expect(mine).toEqual(theirs);
          }
        }),
        { numRuns: 60 },
      );
    },
  );

  it('drops the states of keys back at their initial state at the next sweep', async () => {
    const clock = manualClock(start);
    const store = new AlgorithmMemoryStore(leakyBucket, { clock: clock.now, sweepIntervalMs: 1_000 });
    await store.decide('a', adminLimitModel.policy);
    await store.decide('b', adminLimitModel.policy);
    expect(store.size).toBe(2);
    clock.advance(1_000); // one unit drains in 500 ms: both keys are back to empty
    await store.peek('c', adminLimitModel.policy);
    expect(store.size).toBe(0);
  });
});

describe('createModelScheduler', () => {
  /** A fetch answered by the real server limiter of `api` on the simulated clock. */
  const serverFetch = (api: ApiName, clock: ReturnType<typeof manualClock>) => {
    const limiter = createServerLimiter({ api, clock: clock.now });
    const statuses: number[] = [];
    const fetch: FetchLike = async () => {
      const result = await limiter.take('app');
      statuses.push(result.status);
      return new Response('{}', { status: result.status, headers: result.headers });
    };
    return { fetch, statuses };
  };

  it.each(apis)(
    'schedules 60 calls to the %s API at the same instants as createRateLimitMiddleware',
    async (api) => {
      const sentAt = async (scheduled: boolean) => {
        const clock = manualClock(start);
        const server = serverFetch(api, clock);
        const options = { clock: clock.now, sleep: clock.sleep };
        const middleware = scheduled
          ? createModelScheduler(models[api], options)
          : createRateLimitMiddleware({ api, ...options });
        const times: number[] = [];
        for (let i = 0; i < 60; i++) {
          const request = new Request('https://mall.example/api/products');
          const params = { request, schemaPath: '/products', params: {}, id: String(i), options: {} };
          await clock.run(middleware.onRequest(params));
          times.push(clock.now());
          const response = await server.fetch(request);
          await clock.run(middleware.onResponse({ ...params, response }));
        }
        expect(server.statuses.filter((status) => status === 429)).toEqual([]);
        return times;
      };
      expect(await sentAt(true)).toEqual(await sentAt(false));
    },
  );

  it('keeps its default model in a store run by the model’s algorithm', async () => {
    const kinds: string[] = [];
    const counted: LimitAlgorithm<LimitPolicy, unknown> = {
      decide: (state, nowMs, policy, cost) => {
        kinds.push(policy.kind);
        return leakyBucket.decide(state as never, nowMs, policy as never, cost);
      },
      peek: (state, nowMs, policy, cost) => leakyBucket.peek(state as never, nowMs, policy as never, cost),
      observe: (state, nowMs, policy, remaining) =>
        leakyBucket.observe(state as never, nowMs, policy as never, remaining),
    };
    const clock = manualClock(start);
    const middleware = createModelScheduler({ ...adminLimitModel, algorithm: counted }, { clock: clock.now });
    const request = new Request('https://mall.example/api/products');
    await middleware.onRequest({
      request,
      schemaPath: '/products',
      params: {},
      id: '1',
      options: {},
    } as never);
    expect(kinds).toEqual(['leaky-bucket']);
  });
});
