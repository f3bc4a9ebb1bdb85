// Replicas of the PostgreSQL store that announce each mall's version in a real Redis: a read of a
// mall held at the announced version answers from memory without asking the database (a change
// written behind the announcements stays unseen until the next announced one, which brings both),
// every write, reset and drop of another replica is seen by the next read, and a mall nobody
// announced yet is announced by the first read that catches it up.

import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redisMallVersions } from '../redis/redis-mall-versions.js';
import { useTestRedis } from '../testing/shared-redis.js';
import { runAsWrite } from './mall-storage.js';
import type { SharedMallVersions } from './mall-versions.js';
import { openPostgresMalls, type PostgresMalls } from './postgres-malls.js';

const redis = useTestRedis();
let server: TestPostgresServer;
let url: string;
beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase('versions_test');
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const opened: PostgresMalls[] = [];
afterEach(async () => {
  for (const malls of opened.splice(0)) await malls.close();
});
const replica = async (versions?: SharedMallVersions) => {
  const malls = await openPostgresMalls(url, { log: () => {}, ...(versions ? { versions } : {}) });
  opened.push(malls);
  return malls;
};
const names = (malls: PostgresMalls, mall: string) =>
  malls.read(mall, (store) => store.all('category').map((c) => c.name));
let mallNo = 0;

describe('announced mall versions', { timeout: 30_000 }, () => {
  it('answers a read of a mall held at the announced version from memory, and catches up at the next announcement', async () => {
    const mall = `held-${++mallNo}`;
    const versions = redisMallVersions(await redis.connect());
    const [writer, reader] = [await replica(versions), await replica(versions)];
    // Writes the database but announces nothing: what only a database round trip would find.
    const unannounced = await replica();
    await writer.write(mall, (store) => store.put('category', '1', { name: 'shoes' }));
    expect(await names(reader, mall)).toEqual(['shoes']);
    await unannounced.write(mall, (store) => store.put('category', '2', { name: 'hats' }));
    expect(await names(reader, mall)).toEqual(['shoes']);
    await writer.write(mall, (store) => store.put('category', '3', { name: 'socks' }));
    expect(await names(reader, mall)).toEqual(['shoes', 'hats', 'socks']);
  });

  it('sees every write, replacement and drop of another replica at the next read', async () => {
    const mall = `changed-${++mallNo}`;
    const versions = redisMallVersions(await redis.connect());
    const [a, b] = [await replica(versions), await replica(versions)];
    await a.write(mall, (store) => store.put('category', '1', { name: 'shoes' }));
    expect(await names(b, mall)).toEqual(['shoes']);
    await a.write(mall, (store) => store.delete('category', '1'));
    expect(await names(b, mall)).toEqual([]);
    const staged = a.stage(mall);
    staged.store.transaction(() => staged.store.put('category', '9', { name: 'fixture' }));
    expect(await staged.swap(undefined, () => {})).toBe(true);
    expect(await names(b, mall)).toEqual(['fixture']);
    expect(await a.drop(mall)).toBe(true);
    expect(await names(b, mall)).toBe(runAsWrite);
  });

  it('announces a mall nobody announced when a read first catches it up', async () => {
    const mall = `unannounced-${++mallNo}`;
    const versions = redisMallVersions(await redis.connect());
    await (await replica()).write(mall, (store) => store.put('category', '1', { name: 'shoes' }));
    expect(await versions.get(mall)).toBeUndefined();
    expect(await names(await replica(versions), mall)).toEqual(['shoes']);
    expect(await versions.get(mall)).toBeGreaterThan(0);
  });
});
