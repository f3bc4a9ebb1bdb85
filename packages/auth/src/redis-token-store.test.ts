// Specification of the Redis token store against a real redis-server: the TokenStore contract with a
// separate connection per handle (standing in for separate processes), the key layout, the
// SET NX PX lock with compare-and-delete release, and errors that never carry tokens.
import { inspect } from 'node:util';
import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTokenStore } from './redis-token-store.js';
import { describeTokenStoreContract, sampleTokenSet } from './testing/token-store-contract.js';
import { type StoreClock, systemStoreClock } from './token-store.js';

let server: TestRedisServer;
const connections: Redis[] = [];
let backends = 0;

function connect(): Redis {
  const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  connections.push(redis);
  return redis;
}

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await Promise.all(connections.map((redis) => (redis.status === 'end' ? undefined : redis.quit())));
  await server.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeTokenStoreContract('Redis token store', (clock) => {
  backends += 1;
  const keyPrefix = `contract-${backends}:`;
  return { open: async () => createRedisTokenStore({ redis: connect(), keyPrefix, clock }) };
});

describe('Redis token store layout and lock', () => {
  it('keeps each mall in its own key under the prefix', async () => {
    const redis = connect();
    const store = createRedisTokenStore({ redis, keyPrefix: 'layout:' });
    await store.set('yourmall', sampleTokenSet());
    expect(await redis.keys('layout:*')).toEqual(['layout:tokens:yourmall']);
    expect(JSON.parse((await redis.get('layout:tokens:yourmall')) ?? '{}')).toMatchObject({
      version: 1,
      refreshToken: 'refresh-sample',
      accessTokenExpiresAt: '2030-03-01T05:00:00.000Z',
    });
  });

  it('uses the default prefix mall-api:auth:', async () => {
    const redis = connect();
    await createRedisTokenStore({ redis }).set('defaultmall', sampleTokenSet());
    expect(await redis.exists('mall-api:auth:tokens:defaultmall')).toBe(1);
  });

  it('holds the lock as a random owner id with the lease as expiry, and removes it afterwards', async () => {
    const redis = connect();
    const store = createRedisTokenStore({ redis, keyPrefix: 'lease:' });
    const seen = await store.withLock(
      'yourmall',
      async () => ({
        owner: await redis.get('lease:lock:yourmall'),
        ttl: await redis.pttl('lease:lock:yourmall'),
      }),
      { ttlMs: 5000 },
    );
    expect(seen.owner).toMatch(/^[0-9a-f]{32}$/);
    expect(seen.ttl).toBeGreaterThan(4000);
    expect(seen.ttl).toBeLessThanOrEqual(5000);
    expect(await redis.exists('lease:lock:yourmall')).toBe(0);
  });

  it('gets the lock once a dead holder’s lease expires on the Redis server', async () => {
    const redis = connect();
    const pauses: number[] = [];
    const clock: StoreClock = {
      now: systemStoreClock.now,
      sleep: (ms, signal) => {
        pauses.push(ms);
        return systemStoreClock.sleep(ms, signal);
      },
    };
    const store = createRedisTokenStore({ redis, keyPrefix: 'dead:', clock });
    await redis.set('dead:lock:yourmall', 'a-dead-process', 'PX', 300);
    expect(await store.withLock('yourmall', async () => 'mine', { waitMs: 30_000 })).toBe('mine');
    expect(pauses.length).toBeGreaterThan(0); // the dead holder's lock was there at first
  });

  it('releases only its own lock: after an overrun it reports lock_lost and leaves the new holder’s lock alone', async () => {
    const redis = connect();
    const store = createRedisTokenStore({ redis, keyPrefix: 'overrun:' });
    const overrun = store.withLock(
      'yourmall',
      async () => {
        // The work outlives its 30 ms lease (Redis expires it) and another holder takes the lock.
        while ((await redis.exists('overrun:lock:yourmall')) === 1) await sleep(5);
        expect(await redis.set('overrun:lock:yourmall', 'new-holder', 'PX', 10_000, 'NX')).toBe('OK');
      },
      { ttlMs: 30 },
    );
    await expect(overrun).rejects.toMatchObject({ code: 'lock_lost' });
    expect(await redis.get('overrun:lock:yourmall')).toBe('new-holder');
  });

  it('reports a corrupt record as corrupt_token_record', async () => {
    const redis = connect();
    await redis.set('corrupt:tokens:yourmall', '{"version":2}');
    await expect(
      createRedisTokenStore({ redis, keyPrefix: 'corrupt:' }).get('yourmall'),
    ).rejects.toMatchObject({
      code: 'corrupt_token_record',
    });
  });

  it('wraps Redis errors as store_failed without the command arguments ioredis attaches (the tokens)', async () => {
    const admin = connect();
    await admin.call('ACL', 'SETUSER', 'readonly-user', 'on', '>pw', '~*', '+@all', '-set');
    const port = new URL(server.url).port;
    const limited = new Redis(`redis://readonly-user:pw@127.0.0.1:${port}`, { maxRetriesPerRequest: 1 });
    connections.push(limited);
    const store = createRedisTokenStore({ redis: limited, keyPrefix: 'denied:' });
    const tokens = sampleTokenSet({
      accessToken: 'ACCESS-NEVER-LOGGED',
      refreshToken: 'REFRESH-NEVER-LOGGED',
    });
    const raw = await limited.set('denied:probe', 'ARGUMENT-VISIBLE').catch((e: unknown) => e);
    expect(inspect(raw, { depth: 10 })).toContain('ARGUMENT-VISIBLE'); // what sanitizing protects against
    const error = await store.set('yourmall', tokens).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'store_failed',
      context: { mallId: 'yourmall', operation: 'write the tokens' },
    });
    expect((error as Error).cause).toMatchObject({ message: expect.stringContaining('NOPERM') });
    for (const rendering of [String(error), JSON.stringify(error), inspect(error, { depth: 10 })]) {
      expect(rendering).not.toMatch(/NEVER-LOGGED/);
    }
  });

  it('wraps connection failures as store_failed without the command arguments (the tokens)', async () => {
    const redis = new Redis(server.url, {
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      enableOfflineQueue: false,
    });
    const store = createRedisTokenStore({ redis, keyPrefix: 'offline:' });
    const tokens = sampleTokenSet({
      accessToken: 'ACCESS-NEVER-LOGGED',
      refreshToken: 'REFRESH-NEVER-LOGGED',
    });
    const error = await store.set('yourmall', tokens).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'store_failed', context: { mallId: 'yourmall' } });
    for (const rendering of [String(error), JSON.stringify(error), inspect(error, { depth: 10 })]) {
      expect(rendering).not.toMatch(/NEVER-LOGGED/);
    }
    redis.disconnect();
  });
});
