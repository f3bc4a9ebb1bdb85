// The read cache on a real redis-server: a key read twice is loaded once, a change made on another
// connection (another replica) is what the very next read sees, keys outside `<prefix>cached:` are
// never kept, and while its invalidation connection is down every read loads (and keeps nothing
// until it is back).
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { useTestRedis } from '../testing/shared-redis.js';
import { cachedKey } from './redis-connection.js';

const redis = useTestRedis();

/** A read of `key` through the cache that counts its loads. */
function counted(shared: Awaited<ReturnType<typeof redis.connect>>, key: string) {
  const loads = { count: 0 };
  const read = () =>
    shared.cache.read(key, async () => {
      loads.count += 1;
      return shared.client.get(key);
    });
  return { read, loads };
}

/** Waits until `done` holds, polling Redis-side events (no wall-clock assertion). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(done()).toBe(true);
}

describe('the read cache', () => {
  it('loads a key once, and sees a change another replica made on the next read', async () => {
    const [here, there] = [await redis.connect(), await redis.connect()];
    expect(here.cache.tracking()).toBe(true);
    const key = cachedKey(here, 'clock', 'm');
    await there.client.set(key, '1');
    const { read, loads } = counted(here, key);
    expect(await read()).toBe('1');
    expect(await read()).toBe('1');
    expect(loads.count).toBe(1);
    await there.client.set(key, '2');
    // The caller of the change is answered after Redis sent the invalidation; a request it then
    // makes (here: a command on this replica's connection) finds the copy gone.
    await here.client.ping();
    expect(await read()).toBe('2');
    expect(loads.count).toBe(2);
  });

  it('never keeps a key outside the cached prefix', async () => {
    const shared = await redis.connect();
    const { read, loads } = counted(shared, `${shared.prefix}mall:m:journal`);
    await read();
    await read();
    expect(loads.count).toBe(2);
  });

  it('loads every read while its invalidation connection is down, and keeps copies again once it is back', async () => {
    const shared = await redis.connect();
    const key = cachedKey(shared, 'faults', 'm');
    const { read, loads } = counted(shared, key);
    await read();
    const admin = new Redis(redis.url());
    try {
      // Closes every invalidation connection (the only subscribed clients), this one's among them.
      expect(Number(await admin.client('KILL', 'TYPE', 'pubsub'))).toBeGreaterThan(0);
      await until(() => !shared.cache.tracking());
      const before = loads.count;
      await read();
      await read();
      expect(loads.count).toBe(before + 2);
      await until(() => shared.cache.tracking());
      await read();
      await read();
      expect(loads.count).toBe(before + 3);
    } finally {
      await admin.quit();
    }
  });
});
