// Sandbox malls kept in a real PostgreSQL, with two "replicas" (two createSandboxMalls on one
// database): a replica reads a mall when a call first needs it (a collection call: the malls it
// names, else every mall),
// not all at start; committed records survive a reopening; a replica catches up with what another wrote, deleted, reset or dropped (the
// collection too); a fixture loads whole or not at all; a reset to a named fixture or a seed and a
// restore are seen by both, a refused one writes nothing; concurrent writes from both to one mall
// lose nothing; a write whose commit fails leaves memory as it was; and a stopped database answers
// 503 and not ready (logged once), then recovers.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openStorage } from '@mall-api/mall-state';
import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SandboxCall, SandboxOutcome } from '../protocol.js';
import { createSandboxMalls, type SandboxMalls } from './sandbox-malls.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here
type Body = Record<string, any>;

let server: TestPostgresServer;
let databases = 0;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** A new empty database on the server; its URL. */
const newDatabase = async (): Promise<string> => {
  return server.createDatabase(`sandbox_${++databases}`);
};

const opened: SandboxMalls[] = [];
afterEach(async () => {
  for (const malls of opened.splice(0)) await malls.close();
});
/** Messages the replicas logged (outages), in order. */
const logged: string[] = [];
const replica = async (
  url: string,
  newMall: 'empty' | { seed: number } = 'empty',
  fixtures: Record<string, unknown> = {},
) => {
  const malls = await createSandboxMalls({
    storage: await openStorage({ postgres: url }, { log: (m) => logged.push(m) }),
    newMall,
    fixtures,
  });
  opened.push(malls);
  return malls;
};

/** A call of `api` (the collection's carry no mall), its parts defaulting to empty. */
const call =
  (api: SandboxCall['api']) =>
  (operationId: string, mallId?: string, parts: Partial<SandboxCall> = {}): SandboxCall => ({
    api,
    operationId,
    mallId,
    path: {},
    query: {},
    body: undefined,
    ...parts,
  });
const admin = call('admin');
const collection = (operationId: string, query: Record<string, unknown>) =>
  call('collection')(operationId, undefined, { query });
/** The body of an answer; throws on a refusal. */
const bodyOf = (result: SandboxOutcome): Body => {
  if (!result.ok) throw new Error(`refused (${result.reason}): ${result.message}`);
  return result.body as Body;
};
const createCategory = async (malls: SandboxMalls, mallId: string, name: string) =>
  bodyOf(await malls.handle(admin('createCategory', mallId, { body: { request: { category_name: name } } })))
    .category as Body;
const categoryNames = async (malls: SandboxMalls, mallId: string) =>
  (
    bodyOf(await malls.handle(admin('listCategories', mallId, { query: { limit: 100 } })))
      .categories as Body[]
  ).map((c) => c.category_name as string);

describe('sandbox malls in PostgreSQL', { timeout: 60_000 }, () => {
  it('reads a mall when a call first needs it, not every mall at start; a collection call reads the malls it names, else every mall', async () => {
    const url = await newDatabase();
    const first = await replica(url);
    for (const mallId of ['m1', 'm2', 'm3']) await createCategory(first, mallId, `shelf of ${mallId}`);

    const storage = await openStorage({ postgres: url }, { log: (m) => logged.push(m) });
    const reads = vi.spyOn(storage, 'read');
    const catchUps = vi.spyOn(storage, 'catchUp');
    const second = await createSandboxMalls({ storage, newMall: 'empty' });
    opened.push(second);
    expect(reads).not.toHaveBeenCalled();
    expect(catchUps).not.toHaveBeenCalled();

    expect(await categoryNames(second, 'm2')).toContain('shelf of m2');
    expect(reads.mock.calls.map(([mallId]) => mallId)).toEqual(['m2']);
    expect(catchUps).not.toHaveBeenCalled();

    const ofM3 = bodyOf(await second.handle(collection('listShops', { store_id: ['m3'], limit: 100 })))
      .shops as Body[];
    expect(new Set(ofM3.map((shop) => shop.store_id))).toEqual(new Set(['m3']));
    expect(catchUps.mock.calls.map(([mallIds]) => mallIds)).toEqual([['m3']]);

    const shops = bodyOf(await second.handle(collection('listShops', { limit: 100 }))).shops as Body[];
    expect(new Set(shops.map((shop) => shop.store_id))).toEqual(new Set(['m1', 'm2', 'm3']));
    expect(catchUps.mock.calls.map(([mallIds]) => mallIds)).toEqual([['m3'], undefined]);
  });

  it('finds every committed record, and no refused one, after reopening', async () => {
    const url = await newDatabase();
    const first = await replica(url);
    const shoes = await createCategory(first, 'm1', 'shoes');
    const refused = await first.handle(
      admin('createCategory', 'm1', {
        body: { request: { category_name: 'orphan', parent_category_no: 999 } },
      }),
    );
    expect(refused).toMatchObject({ ok: false });
    await first.close();
    opened.splice(opened.indexOf(first), 1);
    const second = await replica(url);
    expect(await second.mallIds()).toEqual(['m1']);
    expect(await categoryNames(second, 'm1')).toEqual(['shoes']);
    expect((await createCategory(second, 'm1', 'hats')).category_no).toBe(shoes.category_no + 1);
  });

  it('starts a new mall once, as new malls start, whichever replica uses it first', async () => {
    const url = await newDatabase();
    const [a, b] = [await replica(url, { seed: 1 }), await replica(url, { seed: 1 })];
    const [fromA, fromB] = await Promise.all([categoryNames(a, 'seeded'), categoryNames(b, 'seeded')]);
    expect(fromA.length).toBeGreaterThan(0);
    expect(fromB).toEqual(fromA);
    expect((await a.snapshot('seeded'))?.tables).toEqual((await b.snapshot('seeded'))?.tables);
  });

  it('catches up with what another replica wrote, deleted, reset and dropped', async () => {
    const url = await newDatabase();
    const [a, b] = [await replica(url), await replica(url)];
    const shoes = await createCategory(a, 'm', 'shoes');
    await createCategory(a, 'm', 'hats');
    expect(await categoryNames(b, 'm')).toEqual(['shoes', 'hats']);
    bodyOf(await b.handle(admin('deleteCategory', 'm', { path: { category_no: shoes.category_no } })));
    expect(await categoryNames(a, 'm')).toEqual(['hats']);
    bodyOf(
      await b.handle(
        admin('createProduct', 'm', {
          body: { request: { product_name: 'lamp', supply_price: '1.00', display: 'T' } },
        }),
      ),
    );
    const listed = bodyOf(await a.handle(collection('listStoreProducts', { store_id: 'm' })));
    expect((listed.store_products as Body[]).map((p) => p.product_name)).toEqual(['lamp']);
    expect(await a.reset('m', 'empty')).toMatchObject({ ok: true });
    expect(await categoryNames(b, 'm')).toEqual([]);
    expect(await a.drop('m')).toBe(true);
    expect(bodyOf(await b.handle(collection('listStoreProducts', { store_id: 'm' }))).store_products).toEqual(
      [],
    );
    expect(await b.mallIds()).toEqual([]);
    expect(await b.snapshot('m')).toBeUndefined();
  });

  it('loses no write when two replicas create and delete in one mall at once, and both end with the same mall', async () => {
    const url = await newDatabase();
    const [a, b] = [await replica(url), await replica(url)];
    const created = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createCategory(i % 2 ? a : b, 'busy', `shelf ${i}`)),
    );
    const ids = created.map((c) => c.category_no as number);
    expect(new Set(ids).size).toBe(50);
    const expected = Array.from({ length: 50 }, (_, i) => `shelf ${i}`).sort();
    expect((await categoryNames(a, 'busy')).sort()).toEqual(expected);
    expect((await categoryNames(b, 'busy')).sort()).toEqual(expected);
    const deleted = await Promise.all(
      ids
        .filter((_, i) => i % 3 === 0)
        .map((category_no, i) =>
          (i % 2 ? a : b).handle(admin('deleteCategory', 'busy', { path: { category_no } })),
        ),
    );
    expect(deleted.map((result) => result.ok)).toEqual(deleted.map(() => true));
    const [seenByA, seenByB] = [await a.snapshot('busy'), await b.snapshot('busy')];
    expect(seenByA?.tables.category).toHaveLength(50 - deleted.length);
    expect(seenByB).toEqual(seenByA);
  });

  it('loads a fixture whole or, when one record is refused, not at all, on every replica', async () => {
    const url = await newDatabase();
    const [a, b] = [await replica(url), await replica(url)];
    const refused = await a.loadFixture('f', {
      categories: [
        { $id: 'home', category_name: 'Home' },
        { category_name: 'Mugs', parent_category_no: { $ref: 'nowhere' } },
      ],
    });
    expect(refused).toMatchObject({ ok: false });
    expect(await categoryNames(a, 'f')).toEqual([]);
    expect(await categoryNames(b, 'f')).toEqual([]);
    const loaded = await b.loadFixture('f', {
      categories: [
        { $id: 'home', category_name: 'Home' },
        { category_name: 'Mugs', parent_category_no: { $ref: 'home' } },
      ],
    });
    expect(loaded).toMatchObject({ ok: true, counts: { categories: 2 } });
    expect(await categoryNames(a, 'f')).toEqual(['Home', 'Mugs']);
  });

  it('resets to a named fixture or a seed and restores a snapshot on every replica; a refused one writes nothing', async () => {
    const url = await newDatabase();
    const shelf = {
      categories: [
        { $id: 'home', category_name: 'Home' },
        { category_name: 'Mugs', parent_category_no: { $ref: 'home' } },
      ],
    };
    const [a, b] = [await replica(url, 'empty', { shelf }), await replica(url, 'empty', { shelf })];
    expect(await a.reset('r', { fixture: 'shelf' })).toMatchObject({ ok: true, counts: { categories: 2 } });
    expect(await categoryNames(b, 'r')).toEqual(['Home', 'Mugs']);
    const kept = await b.snapshot('r');
    expect(await b.reset('r', { fixture: 'nowhere' })).toMatchObject({
      ok: false,
      violations: [{ name: 'fixture', message: 'there is no fixture named nowhere' }],
    });
    expect(await a.restore('r', { tables: { category: 'not a list' } })).toMatchObject({ ok: false });
    expect(await a.snapshot('r')).toEqual(kept);
    const seeded = await a.reset('r', { seed: 1 });
    expect(seeded).toMatchObject({ ok: true });
    expect(seeded.ok && seeded.counts.products).toBeGreaterThan(0);
    expect((await categoryNames(b, 'r')).length).toBeGreaterThan(2);
    expect(await b.restore('r', kept)).toMatchObject({ ok: true, counts: { categories: 2 } });
    // Records the seed also has come back in the snapshot's order, in both replicas and the database.
    expect(await b.snapshot('r')).toEqual(kept);
    expect(await a.snapshot('r')).toEqual(kept);
    expect(await (await replica(url)).snapshot('r')).toEqual(kept);
  });

  it('leaves memory unchanged when the commit fails, and answers 503', async () => {
    const url = await newDatabase();
    const malls = await replica(url);
    const kept = await createCategory(malls, 'm', 'kept');
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      // A deferred trigger refuses the commit of any record named "refused".
      await db.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.value::text LIKE '%"refused"%' THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NEW; END $$`);
      await db.query(`CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT OR UPDATE ON mall_records
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse()`);
      const failed = await malls.handle(
        admin('createCategory', 'm', { body: { request: { category_name: 'refused' } } }),
      );
      expect(failed).toMatchObject({ ok: false, reason: 'unavailable', violations: [] });
      await db.query('DROP TRIGGER refuse_at_commit ON mall_records');
    } finally {
      await db.end();
    }
    expect(await categoryNames(malls, 'm')).toEqual(['kept']);
    expect((await createCategory(malls, 'm', 'next')).category_no).toBe(kept.category_no + 1);
  });

  it('answers 503 and not ready while the database is down, and recovers when it is back', async () => {
    const url = await newDatabase();
    const malls = await replica(url);
    await createCategory(malls, 'm', 'before');
    logged.length = 0;
    await server.pause();
    try {
      expect(await malls.ready()).toBe(false);
      expect(await malls.handle(admin('listCategories', 'm'))).toMatchObject({
        ok: false,
        reason: 'unavailable',
      });
      expect(
        await malls.handle(admin('createCategory', 'm', { body: { request: { category_name: 'lost' } } })),
      ).toMatchObject({ ok: false, reason: 'unavailable' });
      expect(await malls.handle(collection('listStoreProducts', {}))).toMatchObject({
        reason: 'unavailable',
      });
    } finally {
      await server.start();
    }
    expect(await malls.ready()).toBe(true);
    await createCategory(malls, 'm', 'after');
    expect(logged).toEqual([
      expect.stringMatching(/^sandbox store: PostgreSQL is unavailable \(.*ECONNREFUSED.*\)/),
      'sandbox store: PostgreSQL is back',
    ]);
    expect(await categoryNames(malls, 'm')).toEqual(['before', 'after']);
  });
});

describe('reset, fixture load and restore on PostgreSQL', { timeout: 120_000 }, () => {
  /** A fixture of `count` products. */
  const productsFixture = (count: number) => ({
    products: Array.from({ length: count }, (_, i) => ({
      product_name: `Bulk ${i}`,
      price: '1000.00',
      supply_price: '500.00',
    })),
  });
  /** Rows of the database at `url`. */
  const rowsOf = async (url: string, sql: string, values: unknown[] = []) => {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      return (await db.query(sql, values)).rows;
    } finally {
      await db.end();
    }
  };
  /** Rows of the mall's records in row sets other than its current one (old generations not deleted). */
  const strayRows = async (url: string, mallId: string) =>
    (
      await rowsOf(
        url,
        `SELECT count(*)::int AS n FROM mall_records
         WHERE rowset LIKE $1 || '@%' AND rowset <> (SELECT rowset FROM malls WHERE mall = $1)`,
        [mallId],
      )
    )[0]?.n;
  const productCount = async (malls: SandboxMalls, mallId: string) =>
    bodyOf(await malls.handle(admin('countProducts', mallId))).count as number;

  it('loads 20,000 products without holding the event loop, and every replica sees them whole', async () => {
    const url = await newDatabase();
    const [a, b] = [await replica(url), await replica(url)];
    await createCategory(a, 'big', 'before');
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const started = performance.now();
    const loaded = await a.loadFixture('big', productsFixture(20_000));
    const loadMs = performance.now() - started;
    delay.disable();
    expect(loaded).toMatchObject({ ok: true, counts: { products: 20_000, categories: 1 } });
    // Structural, not a timing target: the longest block is a small part of the whole load (one
    // giant synchronous build would block for nearly all of it).
    const longestBlockMs = delay.max / 1e6;
    expect(longestBlockMs).toBeLessThan(loadMs / 4);
    expect(await productCount(b, 'big')).toBe(20_000);
    expect(await categoryNames(b, 'big')).toEqual(['before']);
    expect(await strayRows(url, 'big')).toBe(0);
    expect(await a.reset('big', 'empty')).toMatchObject({ ok: true, counts: { products: 0 } });
    expect(await productCount(b, 'big')).toBe(0);
    expect(await strayRows(url, 'big')).toBe(0);
  });

  it('refuses a fixture load as a conflict when another replica writes the mall meanwhile, loading nothing', async () => {
    const url = await newDatabase();
    const [a, b] = [await replica(url), await replica(url)];
    await createCategory(a, 'raced', 'first');
    const loading = a.loadFixture('raced', productsFixture(5_000));
    // The next row set is being written (listed as loose): the write lands before the swap.
    while ((await rowsOf(url, "SELECT 1 FROM loose_rowsets WHERE rowset LIKE 'raced@%'")).length === 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    await createCategory(b, 'raced', 'meanwhile');
    expect(await loading).toMatchObject({ ok: false, reason: 'conflict', violations: [{ name: 'mall' }] });
    expect(await productCount(a, 'raced')).toBe(0);
    expect(await categoryNames(a, 'raced')).toEqual(['first', 'meanwhile']);
    expect(await strayRows(url, 'raced')).toBe(0);
    expect(await rowsOf(url, "SELECT rowset FROM loose_rowsets WHERE rowset LIKE 'raced@%'")).toEqual([]);
  });

  it('ends consistent when two replicas reset one mall at once', async () => {
    const url = await newDatabase();
    const shelf = { categories: [{ category_name: 'Shelf' }] };
    const [a, b] = [await replica(url, 'empty', { shelf }), await replica(url, 'empty', { shelf })];
    await createCategory(a, 'both', 'old');
    const outcomes = await Promise.all([a.reset('both', { fixture: 'shelf' }), b.reset('both', { seed: 1 })]);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true]);
    const [seenByA, seenByB] = [await a.snapshot('both'), await b.snapshot('both')];
    expect(seenByA).toEqual(seenByB);
    expect(seenByA?.tables.category.map(([, c]) => c.category_name)).not.toContain('old');
    expect(await (await replica(url)).snapshot('both')).toEqual(seenByA);
    expect(await strayRows(url, 'both')).toBe(0);
  });

  it('writes nothing for a refused fixture or snapshot', async () => {
    const url = await newDatabase();
    const malls = await replica(url);
    await createCategory(malls, 'kept', 'kept');
    const [before] = await rowsOf(url, 'SELECT version, rowset FROM malls WHERE mall = $1', ['kept']);
    expect(await malls.loadFixture('kept', { products: [{ product_name: 'no price' }] })).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(await malls.restore('kept', { format: 'mall-api-sandbox-snapshot', version: 1 })).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(await rowsOf(url, 'SELECT version, rowset FROM malls WHERE mall = $1', ['kept'])).toEqual([
      before,
    ]);
    expect(await rowsOf(url, 'SELECT rowset FROM loose_rowsets')).toEqual([]);
  });
});
