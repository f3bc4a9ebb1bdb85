// The PostgreSQL store of one replica, below the sandbox's services: what the memory and SQLite
// stores promise holds here too — a write that throws leaves nothing behind (in memory and in the
// database), nested transactions belong to the outer one, sequences never hand out a number twice,
// writes happen inside a transaction only — and another replica opening the database finds every
// committed record of every mall, malls kept apart, in the order they were written, deletions too;
// the schema migrates once however many replicas start together; an observer hears of every change;
// a drop asks whether the mall is still unused under its row lock, so a write waiting on it lands
// in the mall made anew; the malls holding records of a table (the events waiting) are named.

import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAsWrite } from './mall-storage.js';
import { openPostgresMalls, type PostgresMalls } from './postgres-malls.js';
import { migrate } from './postgres-migrations.js';
import { openPostgresSession, type PostgresSession } from './postgres-session.js';

let server: TestPostgresServer;
let url: string;
beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase('store_test');
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const opened: PostgresMalls[] = [];
afterEach(async () => {
  for (const malls of opened.splice(0)) await malls.close();
});
const replica = async () => {
  const malls = await openPostgresMalls(url, { log: () => {} });
  opened.push(malls);
  return malls;
};
let mallNo = 0;
/** Resolves once some session of the test database waits for a lock. */
const untilALockIsAwaited = async () => {
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  try {
    for (;;) {
      const { rows } = await watcher.query('SELECT 1 FROM pg_locks WHERE NOT granted LIMIT 1');
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await watcher.end();
  }
};

describe('the PostgreSQL store', { timeout: 30_000 }, () => {
  it('migrates the schema once when replicas start together, and not again', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE migrations_test');
    await admin.end();
    const fresh = server.url.replace(/\/postgres$/, '/migrations_test');
    const sessions = await Promise.all([0, 1, 2].map(() => openPostgresSession(fresh, () => {})));
    const [first] = sessions as [PostgresSession];
    try {
      const applied = await Promise.all(sessions.map((session) => migrate(session)));
      expect(applied.flat().sort()).toEqual(['0001_mall_records.sql', '0002_generations.sql']);
      expect(await migrate(first)).toEqual([]);
      const { rows } = await first.pool.query('SELECT name FROM schema_migrations ORDER BY applied_at, name');
      expect(rows).toEqual([{ name: '0001_mall_records.sql' }, { name: '0002_generations.sql' }]);
    } finally {
      await Promise.all(sessions.map((session) => session.pool.end()));
    }
  });

  it('tells its observer of each change to a table of a mall, the writes of another replica caught up too', async () => {
    const mall = `observed-${++mallNo}`;
    const writer = await replica();
    const reader = await replica();
    const heard: string[] = [];
    reader.observe((mallId, table) => {
      if (mallId === mall) heard.push(table);
    });
    await reader.write(mall, (store) => store.put('category', '1', { name: 'shoes' }));
    expect(heard).toContain('category');
    heard.length = 0;
    await writer.write(mall, (store) => store.put('product', '1', { product_no: 1 }));
    await reader.read(mall, (store) => store.size('product'));
    expect(heard).toContain('product');
  });

  it('undoes every write of a transaction that throws, in memory and in the database', async () => {
    const mall = `undo-${++mallNo}`;
    const malls = await replica();
    await malls.write(mall, (store) => store.put('category', '1', { name: 'kept' }));
    await expect(
      malls.write(mall, (store) => {
        store.put('category', '1', { name: 'changed' });
        store.put('category', '2', { name: 'added' });
        store.nextNumber('category_no', 10);
        store.transaction(() => store.delete('category', '1'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await malls.read(mall, (store) => store.all('category'))).toEqual([{ name: 'kept' }]);
    expect(await malls.write(mall, (store) => store.nextNumber('category_no', 10))).toBe(11);
    const other = await replica();
    expect(await other.read(mall, (store) => store.all('category'))).toEqual([{ name: 'kept' }]);
  });

  it('refuses a write outside a transaction', async () => {
    const malls = await replica();
    const store = malls.open(`outside-${++mallNo}`);
    expect(() => store.put('product', '1', {})).toThrow(/inside a transaction/);
  });

  it('asks for a write when a read wrote or the mall does not exist, keeping nothing of it', async () => {
    const mall = `read-${++mallNo}`;
    const malls = await replica();
    expect(await malls.read(mall, () => 'answered')).toBe(runAsWrite);
    await malls.write(mall, () => undefined);
    expect(await malls.read(mall, (store) => store.size('product'))).toBe(0);
    expect(await malls.read(mall, (store) => store.transaction(() => store.put('product', '1', {})))).toBe(
      runAsWrite,
    );
    expect(await malls.read(mall, (store) => store.size('product'))).toBe(0);
  });

  it('names the malls holding a record of a table, the deleted ones not', async () => {
    const [holding, emptied, other] = [`hold-${++mallNo}`, `emptied-${++mallNo}`, `other-${++mallNo}`];
    const malls = await replica();
    await malls.write(holding, (store) => store.put('event', '1', { seq: 1 }));
    await malls.write(emptied, (store) => store.put('event', '1', { seq: 1 }));
    await malls.write(emptied, (store) => store.delete('event', '1'));
    await malls.write(other, (store) => store.put('product', '1', {}));
    const named = await (await replica()).mallsHolding('event');
    expect(named).toContain(holding);
    expect(named).not.toContain(emptied);
    expect(named).not.toContain(other);
  });

  it('shows another replica every committed record of every mall, in order, deletions too', async () => {
    const [a, b] = [`order-a-${++mallNo}`, `order-b-${mallNo}`];
    const first = await replica();
    await first.write(a, (store) => {
      for (const key of ['3', '1', '2']) store.put('product', key, { product_no: Number(key) });
    });
    await first.write(b, (store) => store.put('product', '9', { product_no: 9, name: 'b' }));
    const second = await replica();
    expect(await second.read(a, (store) => store.entries('product').map(([key]) => key))).toEqual([
      '3',
      '1',
      '2',
    ]);
    expect(await second.read(b, (store) => store.all('product'))).toEqual([{ product_no: 9, name: 'b' }]);
    await first.write(a, (store) => {
      store.delete('product', '1');
      store.put('product', '2', { product_no: 2, name: 'changed' });
    });
    expect(await second.read(a, (store) => store.all('product'))).toEqual([
      { product_no: 3 },
      { product_no: 2, name: 'changed' },
    ]);
    expect(await second.mallIds()).toEqual(expect.arrayContaining([a, b]));
  });
});

describe('PostgreSQL upkeep', { timeout: 30_000 }, () => {
  let db: pg.Pool;
  beforeAll(() => {
    db = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 100 });
    // An idle connection ended by the server's stop is not a test failure.
    db.on('error', () => {});
  });
  afterAll(async () => {
    await db.end();
  });
  const rowsOf = async (sql: string, values: unknown[] = []) => (await db.query(sql, values)).rows;

  it('purges old tombstones, and a replica that needed one reads the mall whole instead of missing the deletion', async () => {
    const mall = `purge-${++mallNo}`;
    const writer = await openPostgresMalls(url, { log: () => {}, tombstoneRetentionMs: 0, upkeepEveryMs: 0 });
    opened.push(writer);
    const lagging = await replica();
    await writer.write(mall, (store) => {
      for (const key of ['1', '2', '3']) store.put('product', key, { product_no: Number(key) });
    });
    expect(await lagging.read(mall, (store) => store.size('product'))).toBe(3);
    await writer.write(mall, (store) => store.delete('product', '2'));
    const tombstones = () =>
      rowsOf(
        'SELECT r.key FROM mall_records r JOIN malls m ON m.rowset = r.rowset WHERE m.mall = $1 AND r.value IS NULL',
        [mall],
      );
    expect(await tombstones()).toEqual([{ key: '2' }]);
    expect(await writer.purge()).toMatchObject({ tombstones: expect.any(Number) });
    expect(await tombstones()).toEqual([]);
    expect(await lagging.read(mall, (store) => store.entries('product').map(([key]) => key))).toEqual([
      '1',
      '3',
    ]);
    await writer.write(mall, (store) => store.put('product', '4', { product_no: 4 }));
    expect(await lagging.read(mall, (store) => store.entries('product').map(([key]) => key))).toEqual([
      '1',
      '3',
      '4',
    ]);
  });

  it('keeps tombstones younger than the retention', async () => {
    const mall = `young-${++mallNo}`;
    const malls = await replica();
    await malls.write(mall, (store) => store.put('product', '1', { product_no: 1 }));
    await malls.write(mall, (store) => store.delete('product', '1'));
    await malls.purge();
    const [row] = await rowsOf(
      'SELECT count(*)::int AS n FROM mall_records r JOIN malls m ON m.rowset = r.rowset WHERE m.mall = $1 AND r.value IS NULL',
      [mall],
    );
    expect(row).toEqual({ n: 1 });
  });

  it('deletes the rows of a row set a stopped replica left loose for over an hour, and no other', async () => {
    const malls = await replica();
    await rowsOf(
      `INSERT INTO mall_records (rowset, tbl, key, value, version) VALUES ('left@old', 'product', '1', '{}', 0), ('left@new', 'product', '1', '{}', 0)`,
    );
    await rowsOf(
      `INSERT INTO loose_rowsets (rowset, since) VALUES ('left@old', now() - interval '2 hours'), ('left@new', now())`,
    );
    expect(await malls.purge()).toMatchObject({ rowsets: 1 });
    expect(await rowsOf("SELECT rowset FROM mall_records WHERE rowset LIKE 'left@%'")).toEqual([
      { rowset: 'left@new' },
    ]);
    expect(await rowsOf("SELECT rowset FROM loose_rowsets WHERE rowset LIKE 'left@%'")).toEqual([
      { rowset: 'left@new' },
    ]);
  });

  it('drops a mall with its rows, and a mall made again under its id starts empty', async () => {
    const mall = `dropped-${++mallNo}`;
    const malls = await replica();
    await malls.write(mall, (store) => store.put('product', '1', { product_no: 1 }));
    expect(await malls.drop(mall)).toBe(true);
    expect(await malls.drop(mall)).toBe(false);
    await malls.write(mall, () => undefined);
    expect(await malls.read(mall, (store) => store.size('product'))).toBe(0);
    const [row] = await rowsOf(
      "SELECT count(*)::int AS n FROM mall_records WHERE rowset LIKE $1 || '@%' OR rowset = $1",
      [mall],
    );
    expect(row).toEqual({ n: 0 });
  });

  it('drops a mall only when it is still unused, asked under its row lock: a write of another replica waits', async () => {
    const mall = `guarded-${++mallNo}`;
    const [a, b] = [await replica(), await replica()];
    await a.write(mall, (store) => store.put('product', '1', { product_no: 1 }));
    expect(await a.drop(mall, async () => false)).toBe(false);
    expect(await b.read(mall, (store) => store.size('product'))).toBe(1);

    // While the drop holds the lock, replica b's write finds the mall's row and waits on its lock;
    // when the drop commits there is no row to lock, and the write makes the mall anew.
    let written: Promise<void> | undefined;
    const dropped = await a.drop(mall, async () => {
      written = b.write(mall, (store) => store.put('product', '2', { product_no: 2 }));
      await untilALockIsAwaited();
      return true;
    });
    expect(dropped).toBe(true);
    await written;
    expect(await a.read(mall, (store) => store.entries('product').map(([key]) => key))).toEqual(['2']);
  });

  it('tells a replica of a mall it holds that another replica dropped, when upkeep runs', async () => {
    const mall = `forgotten-${++mallNo}`;
    const [a, b] = [await replica(), await replica()];
    await a.write(mall, (store) => store.put('product', '1', { product_no: 1 }));
    expect(await b.read(mall, (store) => store.size('product'))).toBe(1);
    const gone: string[] = [];
    b.observeGone((mallId) => gone.push(mallId));
    await b.purge();
    expect(gone).toEqual([]);
    expect(await a.drop(mall)).toBe(true);
    await b.purge();
    expect(gone).toEqual([mall]);
  });
});
