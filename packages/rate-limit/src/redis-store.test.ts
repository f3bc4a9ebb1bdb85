import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLimits } from './api-limits.js';
import { createRateLimitMiddleware } from './client-scheduler.js';
import { manualClock } from './clock.js';
import { RateLimitError } from './errors.js';
import { MemoryStore } from './memory-store.js';
import { type Decision, type LimitPolicy, policyLimit, refillPerSecond } from './policy.js';
import { LIMITER_SCRIPT_SHA, RedisStore } from './redis-store.js';
import type { FetchLike } from './request-sender.js';
import { createServerLimiter } from './server-limiter.js';

const start = Date.UTC(2025, 0, 1, 12, 0, 0);
/** A bucket that barely refills during a test, for tests that use Redis's own clock. */
const slowBucket: LimitPolicy = { kind: 'token-bucket', capacity: 40, refillIntervalMs: 3_600_000 };

let server: TestRedisServer;
let redis: Redis;
const connections: Redis[] = [];
let keySeq = 0;
const freshKey = (): string => `key-${++keySeq}`;

const connect = (): Redis => {
  const connection = new Redis(server.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  connections.push(connection);
  return connection;
};

beforeAll(async () => {
  server = await startRedisServer();
  redis = connect();
});

afterAll(async () => {
  await Promise.all(
    connections.map((c) => (c.status === 'end' ? undefined : c.quit().catch(() => undefined))),
  );
  await server.stop();
});

const admittedOf = (decisions: readonly Decision[]): number => decisions.filter((d) => d.allowed).length;

describe('RedisStore', () => {
  it.each(Object.values(apiLimits))(
    'admits exactly the limit of 200 simultaneous calls on a real Redis server ($name)',
    async ({ policy }) => {
      const store = new RedisStore({ redis });
      const key = freshKey();
      const decisions = await Promise.all(
        Array.from({ length: 200 }, () => store.decide(key, policy, start)),
      );
      expect(admittedOf(decisions)).toBe(policyLimit(policy));
    },
  );

  it('admits exactly the limit when the time comes from Redis TIME', async () => {
    const store = new RedisStore({ redis });
    const key = freshKey();
    const decisions = await Promise.all(Array.from({ length: 200 }, () => store.decide(key, slowBucket)));
    expect(admittedOf(decisions)).toBe(40);
    expect(decisions.find((d) => !d.allowed)?.retryAfterMs).toBeGreaterThan(3_500_000);
  });

  it('never admits more than the limit in total across five independent connections (processes)', async () => {
    const key = freshKey();
    const processes = Array.from({ length: 5 }, () => new RedisStore({ redis: connect() }));
    const perProcess = await Promise.all(
      processes.map((store) => Promise.all(Array.from({ length: 60 }, () => store.decide(key, slowBucket)))),
    );
    expect(perProcess.reduce((sum, decisions) => sum + admittedOf(decisions), 0)).toBe(40);
    expect(perProcess.every((decisions) => decisions.length === 60)).toBe(true);
  });

  it('never admits more than 40 in any rolling minute across processes with the collection policy', async () => {
    const key = freshKey();
    const processes = Array.from({ length: 4 }, () => new RedisStore({ redis: connect() }));
    const policy = apiLimits.collection.policy;
    const round = (at: number) =>
      Promise.all(
        processes.map((store) =>
          Promise.all(Array.from({ length: 25 }, () => store.decide(key, policy, at))),
        ),
      );
    const first = (await round(start + 10_000)).flat();
    const acrossTheMinute = (await round(start + 60_000)).flat();
    const minuteLater = (await round(start + 69_999)).flat();
    const expired = (await round(start + 70_000)).flat();
    expect([first, acrossTheMinute, minuteLater, expired].map(admittedOf)).toEqual([40, 0, 0, 40]);
  });

  it('gives every key a TTL on Redis TIME that ends when its state stops mattering', async () => {
    const store = new RedisStore({ redis });
    const key = freshKey();
    const policies: LimitPolicy[] = Object.values(apiLimits).map((api) => api.policy);
    for (const policy of policies) {
      const decision = await store.decide(key, policy);
      const ttl = await redis.pttl(store.redisKey(key, policy));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(Math.ceil(decision.resetMs));
    }
  });

  it('keeps a key on a given clock for as long as any state can matter, so a frozen clock loses none', async () => {
    const store = new RedisStore({ redis });
    const key = freshKey();
    // The window, or the time a full bucket takes to empty.
    const longest = (policy: LimitPolicy) => (policyLimit(policy) * 1000) / refillPerSecond(policy);
    for (const { policy } of Object.values(apiLimits)) {
      await store.decide(key, policy, start);
      const ttl = await redis.pttl(store.redisKey(key, policy));
      expect(ttl).toBeGreaterThan(longest(policy) - 1000);
      expect(ttl).toBeLessThanOrEqual(Math.ceil(longest(policy)));
    }
  });

  it('writes under the configured key prefix', async () => {
    const store = new RedisStore({ redis, keyPrefix: 'mall-api:test-prefix:' });
    await store.decide('ip-1', apiLimits.collection.policy, start);
    expect(await redis.keys('mall-api:test-prefix:*')).toEqual(['mall-api:test-prefix:sliding-log:ip-1']);
  });

  it('falls back to EVAL when Redis lost the script, and EVALSHA works again afterwards', async () => {
    const store = new RedisStore({ redis });
    const key = freshKey();
    await redis.script('FLUSH');
    expect(await redis.script('EXISTS', LIMITER_SCRIPT_SHA)).toEqual([0]);
    expect((await store.decide(key, slowBucket)).allowed).toBe(true);
    expect(await redis.script('EXISTS', LIMITER_SCRIPT_SHA)).toEqual([1]);
    expect((await store.decide(key, slowBucket)).remaining).toBe(38);
  });

  it('answers exactly like the memory store for random sequences of decide, peek and observe', async () => {
    const policyArb: fc.Arbitrary<LimitPolicy> = fc.oneof(
      fc.constant(apiLimits.collection.policy),
      fc.constant(apiLimits.admin.policy),
      fc.constant(apiLimits.analytics.policy),
      fc.record({
        kind: fc.constant('leaky-bucket' as const),
        capacity: fc.integer({ min: 1, max: 6 }),
        leakPerSecond: fc.constantFrom(1, 3, 7),
      }),
      fc.record({
        kind: fc.constant('fixed-window' as const),
        limit: fc.integer({ min: 1, max: 6 }),
        windowMs: fc.integer({ min: 1, max: 3_000 }),
      }),
      fc.record({
        kind: fc.constant('sliding-log' as const),
        limit: fc.integer({ min: 1, max: 6 }),
        windowMs: fc.integer({ min: 1, max: 3_000 }),
      }),
    );
    const stepArb = fc.record({
      gap: fc.integer({ min: 0, max: 2_500 }),
      op: fc.constantFrom('decide', 'decide', 'peek', 'observe'),
      cost: fc.integer({ min: 1, max: 3 }),
      remaining: fc.integer({ min: 0, max: 40 }),
    });
    const store = new RedisStore({ redis });
    await fc.assert(
      fc.asyncProperty(
        policyArb,
        fc.array(stepArb, { minLength: 1, maxLength: 25 }),
        async (policy, steps) => {
          const memory = new MemoryStore();
          const key = freshKey();
          const limit = policyLimit(policy);
          let at = start;
          for (const { gap, op, cost, remaining } of steps) {
            at += gap;
            const units = Math.min(cost, limit);
            const [fromRedis, fromMemory] =
              op === 'observe'
                ? await Promise.all([
                    store.observe(key, policy, remaining, at),
                    memory.observe(key, policy, remaining, at),
                  ])
                : await Promise.all([store[op](key, policy, at, units), memory[op](key, policy, at, units)]);
            expect(fromRedis).toEqual(fromMemory);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('reports a failing Redis as a store_failed error value', async () => {
    const closed = connect();
    await closed.quit();
    const store = new RedisStore({ redis: closed });
    const failure = await store.decide('k', slowBucket).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RateLimitError);
    expect(failure).toMatchObject({ code: 'store_failed', context: { operation: 'decide' } });
  });

  it('opens and closes its own connection when given a URL', async () => {
    const store = new RedisStore({ url: server.url, keyPrefix: 'own:' });
    expect((await store.decide('k', slowBucket)).allowed).toBe(true);
    await store.close();
    await expect(store.decide('k', slowBucket)).rejects.toMatchObject({ code: 'store_failed' });
  });

  it('lets N client workers share one schedule, so together they never receive a 429', async () => {
    const clock = manualClock(start);
    const limiter = createServerLimiter({ api: 'collection', clock: clock.now });
    const statuses: number[] = [];
    const fetch: FetchLike = async () => {
      const result = await limiter.take('app');
      statuses.push(result.status);
      return new Response('{}', { status: result.status, headers: result.headers });
    };
    const key = freshKey();
    const workerConnections = [connect(), connect(), connect()];
    await Promise.all(workerConnections.map((connection) => connection.ping()));
    const workers = workerConnections.map((connection) =>
      createRateLimitMiddleware({
        api: 'collection',
        store: new RedisStore({ redis: connection }),
        clock: clock.now,
        sleep: clock.sleep,
        key,
      }),
    );
    const sendVia = async (worker: (typeof workers)[number]): Promise<number> => {
      const request = new Request('https://mall.example/api/products');
      await worker.onRequest({ request });
      const response = await fetch(request);
      return ((await worker.onResponse({ request, response })) ?? response).status;
    };
    const all = Promise.all(workers.flatMap((worker) => Array.from({ length: 20 }, () => sendVia(worker))));
    // 40 go out at once; the other 20 wait in their workers' queues (each head asleep) for the next window.
    const deadline = Date.now() + 5_000;
    while ((clock.pendingSleeps < 3 || statuses.length < 40) && Date.now() < deadline)
      await new Promise((r) => setImmediate(r));
    expect(clock.pendingSleeps).toBe(3);
    expect(statuses).toHaveLength(40);
    clock.advance(60_000);
    expect(await all).toEqual(Array.from({ length: 60 }, () => 200));
    expect(statuses.filter((status) => status === 429)).toEqual([]);
  });
});
