// Replicas of the PostgreSQL store that announce each mall's version in a real Redis: a read of a
// mall held at the announced version answers from memory without asking the database (a change
// written behind the announcements stays unseen until the next announced one, which brings both),
// every write, reset and drop of another replica is seen by the next read, and a mall nobody
// announced yet is announced by the first read that catches it up. A catch-up over every mall (or
// the malls a call names) held as announced asks the database nothing, and sees another replica's
// new mall, write and drop at once; a named mall the database lacked is not asked for again until
// an announcement changes (of such names a replica keeps a bounded number).

import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redisMallVersions } from '../redis/redis-mall-versions.js';
import { useTestRedis } from '../testing/shared-redis.js';
import type { SharedMallVersions } from './mall-storage.js';
import { type CatchUpHooks, runAsWrite } from './mall-storage.js';
import { keptMissing } from './postgres-catch-up.js';
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
/** Hooks that open and close the malls a catch-up adopts and forgets, as the sandbox does, and note them. */
const noted = (malls: PostgresMalls) => {
  const seen = { adopted: [] as string[], forgotten: [] as string[], current: [] as string[] };
  const hooks: CatchUpHooks = {
    adopt: (mallId) => {
      seen.adopted.push(mallId);
      malls.open(mallId);
    },
    forget: (mallId) => {
      seen.forgotten.push(mallId);
      malls.open(mallId).close();
    },
    current: (mallId) => void seen.current.push(mallId),
  };
  return { seen, hooks };
};

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

  it('catches up over every mall without the database while each is held as announced, and sees new malls, writes and drops at once', async () => {
    const [first, second, third] = [`all-${++mallNo}`, `all-${++mallNo}`, `all-${++mallNo}`];
    const shared = await redis.connect();
    const versions = redisMallVersions(shared);
    const [a, b] = [await replica(versions), await replica(versions)];
    const unannounced = await replica();
    await a.write(first, (store) => store.put('category', '1', { name: 'shoes' }));
    const { seen, hooks } = noted(b);
    await b.catchUp(undefined, hooks);
    expect(seen.adopted).toContain(first);
    expect(await names(b, first)).toEqual(['shoes']);
    // A mall made behind the announcements: a catch-up that skips the database does not see it.
    await unannounced.write(second, (store) => store.put('category', '1', { name: 'hats' }));
    seen.adopted.length = 0;
    await b.catchUp(undefined, hooks);
    expect(seen.adopted).toEqual([]);
    // An announced write sends the next catch-up to the database, which finds both, and announces the other.
    await a.write(first, (store) => store.put('category', '2', { name: 'socks' }));
    await b.catchUp(undefined, hooks);
    expect(seen.adopted).toEqual([second]);
    expect(seen.current).toEqual(expect.arrayContaining([first, second]));
    expect(await names(b, first)).toEqual(['shoes', 'socks']);
    expect((await versions.all()).has(second)).toBe(true);
    // A new mall and a drop of another replica, each seen by the very next catch-up.
    await a.write(third, (store) => store.put('category', '1', { name: 'belts' }));
    await b.catchUp([third], hooks);
    expect(seen.adopted).toEqual([second, third]);
    expect(await a.drop(first)).toBe(true);
    expect((await versions.all()).has(first)).toBe(false);
    await b.catchUp(undefined, hooks);
    expect(seen.forgotten).toEqual([first]);
  });

  it('asks the database once for a named mall it lacks, again after any announcement, and sees a mall another replica makes at once', async () => {
    const [shop, other, made] = [`named-${++mallNo}`, `named-${++mallNo}`, `named-${++mallNo}`];
    const versions = redisMallVersions(await redis.connect());
    const [a, b] = [await replica(versions), await replica(versions)];
    const unannounced = await replica();
    const { seen, hooks } = noted(b);
    await b.catchUp([shop], hooks);
    // Made behind the announcements: the next call naming it does not ask the database again.
    await unannounced.write(shop, (store) => store.put('category', '1', { name: 'hats' }));
    await b.catchUp([shop], hooks);
    expect(seen.adopted).toEqual([]);
    // Any announced change sends the next call naming it to the database, which finds it.
    await a.write(other, (store) => store.put('category', '1', { name: 'shoes' }));
    await b.catchUp([shop], hooks);
    expect(seen.adopted).toEqual([shop]);
    expect(await names(b, shop)).toEqual(['hats']);
    // A mall lacking, then made by another replica: the very next call naming it sees it.
    await b.catchUp([made], hooks);
    await a.write(made, (store) => store.put('category', '1', { name: 'belts' }));
    await b.catchUp([made], hooks);
    expect(seen.adopted).toEqual([shop, made]);
    expect(await names(b, made)).toEqual(['belts']);
  });

  it('keeps at most so many names of malls the database lacks, and asks again for those it let go', async () => {
    const shop = `named-${++mallNo}`;
    const versions = redisMallVersions(await redis.connect());
    const b = await replica(versions);
    const unannounced = await replica();
    const { seen, hooks } = noted(b);
    await b.catchUp([shop], hooks);
    // Made-up names past the bound: the names met before them are let go.
    await b.catchUp(
      Array.from({ length: keptMissing }, (_, i) => `made-up-${mallNo}-${i}`),
      hooks,
    );
    await unannounced.write(shop, (store) => store.put('category', '1', { name: 'hats' }));
    await b.catchUp([shop], hooks);
    expect(seen.adopted).toEqual([shop]);
  });
});
