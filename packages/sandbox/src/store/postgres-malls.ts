// The sandbox malls on PostgreSQL, shared by every replica that opens the same database. Each
// replica keeps a memory store per mall (so the synchronous services answer from memory) plus the
// mall's version it holds; a call first reads the database's version of its mall and catches the
// copy up (the rows changed since, or every row when the mall was dropped and made again). A call
// that writes runs in one database transaction holding the mall's row lock: catch up, run the
// work against memory collecting its puts and deletes (memory is put back as it was), write them
// with a new version, COMMIT, and only then apply them to memory — so memory only ever holds
// committed data and a failed commit leaves it unchanged. A write that deletes a record and writes
// it again (a reset or restore: the record moves to the end) rewrites the mall whole, in order,
// under a new `created`, so every replica reads it whole and in the same order. Calls on one mall
// run one at a time in a replica. A database that cannot be reached is a StoreUnavailableError (logged once per
// outage); the pool reconnects when it is back. `pg` is loaded only here, when a PostgreSQL URL
// is given. Not here: which calls write or how a mall starts (sandbox-malls.ts decides).
import type pg from 'pg';
import { clearStore } from '../malls/snapshot.js';
import { migrate } from './postgres-migrations.js';
import {
  createMemoryStore,
  type SandboxStore,
  type StoredRecord,
  type TableName,
  tableNames,
} from './store.js';

/** The database cannot be reached or refused a statement: the call changed nothing. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'store_unavailable';
}

/** What {@link PostgresMalls.read} answers when the call must run as a write instead. */
export const runAsWrite: unique symbol = Symbol('run as write');

/** The malls of one PostgreSQL database, as one replica sees them. */
export interface PostgresMalls {
  /** The memory store of a mall in this replica (caught up by the first call on it). */
  open(mallId: string, onChange?: (table: TableName) => void): SandboxStore;
  /**
   * Runs `work` on the mall's caught-up store without a lock; {@link runAsWrite} when the database
   * has no such mall or `work` wrote (its writes are undone: run it again with {@link write}).
   */
  read<R>(mallId: string, work: () => R): Promise<R | typeof runAsWrite>;
  /**
   * Runs `work` on the mall's store in a transaction holding the mall's row lock and commits its
   * writes; `fresh` is true when the mall did not exist (it is created here, empty). If `work`
   * throws, nothing is written and the error is rethrown.
   */
  write<R>(mallId: string, work: (fresh: boolean) => R): Promise<R>;
  /**
   * Catches up every mall of the database this replica holds; `adopt` is called for each mall
   * it does not hold yet (to open it), `forget` for each it holds that the database no longer has.
   */
  catchUpAll(adopt: (mallId: string) => void, forget: (mallId: string) => void): Promise<void>;
  /** The database's malls, in id order. */
  mallIds(): Promise<string[]>;
  /** Deletes a mall and its records; false when the database did not have it. */
  drop(mallId: string): Promise<boolean>;
  /** Whether the database answers now. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Options of {@link openPostgresMalls}. */
export interface PostgresMallsOptions {
  /** Where an outage and its end are reported (default: console.error). */
  readonly log?: (message: string) => void;
}

type Change = readonly [table: TableName, key: string, value: StoredRecord | undefined];
type VersionRow = { version: string; created: string };
type RecordRow = { tbl: TableName; key: string; value: StoredRecord | null; version: string };

/** The writes of one call: the last change of each table and key, in order of first change. */
interface Captured {
  readonly changes: Map<string, Change>;
  /** Whether a record was deleted and written again (in memory it moved to the end of its table). */
  moved: boolean;
}

/** One mall as this replica holds it. */
interface Held {
  readonly store: SandboxStore;
  /** What `work` wrote while {@link capture} runs. */
  capturing: Captured | undefined;
  version: number;
  created: number;
  /** The last call queued on this mall (calls on one mall run one at a time). */
  tail: Promise<unknown>;
}

/** Most connections a replica opens at once: calls on one mall take turns, so this bounds the malls written at once. */
const poolSize = 10;

/** Loads `pg`, explaining how to get it when it is not installed. */
async function loadDriver(): Promise<typeof pg> {
  try {
    return (await import('pg')).default;
  } catch (error) {
    throw new Error(
      `a PostgreSQL sandbox store needs the optional dependency pg (npm install pg): ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}

/** Connects to the database at `url` (a pool), migrates its schema, and returns its malls. */
export async function openPostgresMalls(
  url: string,
  options: PostgresMallsOptions = {},
): Promise<PostgresMalls> {
  const { Pool } = await loadDriver();
  const log = options.log ?? ((message: string) => console.error(message));
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 3000,
    query_timeout: 10_000,
  });
  let down = false;
  const failed = (error: unknown): StoreUnavailableError => {
    const cause = error instanceof Error ? error.message : String(error);
    if (!down) log(`sandbox store: PostgreSQL is unavailable (${cause}); calls answer 503 until it is back`);
    down = true;
    return new StoreUnavailableError(`the sandbox's PostgreSQL store is unavailable: ${cause}`, {
      cause: error,
    });
  };
  const recovered = () => {
    if (down) log('sandbox store: PostgreSQL is back');
    down = false;
  };
  // An idle connection the server closed: the pool drops it; the next call reports the outage.
  pool.on('error', () => {});
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return postgresMalls(pool, failed, recovered);
}

/** The malls of a migrated database behind `pool`. */
function postgresMalls(
  pool: pg.Pool,
  failed: (error: unknown) => StoreUnavailableError,
  recovered: () => void,
): PostgresMalls {
  const held = new Map<string, Held>();
  const heldMall = (mallId: string): Held => {
    const mall = held.get(mallId);
    if (!mall) throw new Error(`mall ${mallId} is not open in this replica`);
    return mall;
  };
  /** Runs `task` after every earlier call on the mall. */
  const serially = <R>(mall: Held, task: () => Promise<R>): Promise<R> => {
    const run = mall.tail.then(task, task);
    mall.tail = run.catch(() => {});
    return run;
  };
  /** A statement on the pool or a client; a failure is a StoreUnavailableError. */
  const query = async <Row extends pg.QueryResultRow>(
    on: pg.Pool | pg.PoolClient,
    text: string,
    values: unknown[] = [],
  ): Promise<Row[]> => {
    try {
      const result = await on.query<Row>(text, values);
      recovered();
      return result.rows;
    } catch (error) {
      throw failed(error);
    }
  };
  /** Applies rows or changes to a held store (outside any capture: nothing is collected). */
  const apply = (mall: Held, changes: Iterable<Change>, fromEmpty = false) =>
    mall.store.transaction(() => {
      if (fromEmpty) clearStore(mall.store);
      for (const [table, key, value] of changes)
        if (value === undefined) mall.store.delete(table, key);
        else mall.store.put(table, key, value);
    });
  const changesOf = (rows: RecordRow[]): Change[] =>
    rows.map((row) => [row.tbl, row.key, row.value ?? undefined]);
  /** Brings a held mall up to the database's `row` (every row when it was made again since). */
  const catchUp = async (on: pg.Pool | pg.PoolClient, mallId: string, mall: Held, row: VersionRow) => {
    const [version, created] = [Number(row.version), Number(row.created)];
    if (mall.created === created && mall.version >= version) return;
    const whole = mall.created !== created;
    const rows = whole
      ? await query<RecordRow>(
          on,
          'SELECT tbl, key, value, version FROM mall_records WHERE mall = $1 AND value IS NOT NULL ORDER BY position',
          [mallId],
        )
      : await query<RecordRow>(
          on,
          'SELECT tbl, key, value, version FROM mall_records WHERE mall = $1 AND version > $2 ORDER BY position',
          [mallId, mall.version],
        );
    apply(mall, changesOf(rows), whole);
    mall.created = created;
    mall.version = rows.reduce((newest, r) => Math.max(newest, Number(r.version)), version);
  };
  /**
   * Runs `work` on the store, collecting its writes, then undoes them in memory. When a record was
   * deleted and written again (it moved), `whole` is every record as `work` left them, in order.
   */
  const capture = <R>(mall: Held, work: () => R): { result: R; changes: Change[]; whole?: Change[] } => {
    const captured: Captured = { changes: new Map(), moved: false };
    let result: R | undefined;
    let whole: Change[] | undefined;
    const undo = new Error('collected');
    mall.capturing = captured;
    try {
      mall.store.transaction(() => {
        result = work();
        if (captured.moved)
          whole = tableNames.flatMap((table) =>
            mall.store.entries(table).map(([key, value]): Change => [table, key, value]),
          );
        throw undo;
      });
    } catch (error) {
      if (error !== undo) throw error;
    } finally {
      mall.capturing = undefined;
    }
    return { result: result as R, changes: [...captured.changes.values()], ...(whole ? { whole } : {}) };
  };

  return {
    open(mallId, onChange) {
      const mall: Held = {
        capturing: undefined,
        version: -1,
        created: -1,
        tail: Promise.resolve(),
        store: createMemoryStore(
          {
            begin: () => {},
            put: (table, key, value) => {
              const captured = mall.capturing;
              if (!captured) return;
              const id = `${table}\u0000${key}`;
              if (captured.changes.has(id) && captured.changes.get(id)?.[2] === undefined)
                captured.moved = true;
              captured.changes.set(id, [table, key, value]);
            },
            delete: (table, key) =>
              mall.capturing?.changes.set(`${table}\u0000${key}`, [table, key, undefined]),
            commit: () => {},
            rollback: () => {},
            close: () => {
              if (held.get(mallId) === mall) held.delete(mallId);
            },
          },
          [],
          onChange,
        ),
      };
      held.set(mallId, mall);
      return mall.store;
    },

    read(mallId, work) {
      const mall = heldMall(mallId);
      return serially(mall, async () => {
        const [row] = await query<VersionRow>(pool, 'SELECT version, created FROM malls WHERE mall = $1', [
          mallId,
        ]);
        if (!row) return runAsWrite;
        await catchUp(pool, mallId, mall, row);
        const { result, changes } = capture(mall, work);
        return changes.length > 0 ? runAsWrite : result;
      });
    },

    write(mallId, work) {
      const mall = heldMall(mallId);
      return serially(mall, async () => {
        let client: pg.PoolClient;
        try {
          client = await pool.connect();
        } catch (error) {
          throw failed(error);
        }
        let broken: Error | undefined;
        try {
          await query(client, 'BEGIN');
          await query(
            client,
            "INSERT INTO malls (mall, version, created) SELECT $1, v, v FROM nextval('mall_versions') AS v ON CONFLICT (mall) DO NOTHING",
            [mallId],
          );
          const [row] = await query<VersionRow>(
            client,
            'SELECT version, created FROM malls WHERE mall = $1 FOR UPDATE',
            [mallId],
          );
          if (!row) throw failed(new Error(`mall ${mallId} vanished while it was being written`));
          const fresh = row.version === row.created;
          await catchUp(client, mallId, mall, row);
          const { result, changes, whole } = capture(mall, () => work(fresh));
          let { version, created } = mall;
          if (fresh || changes.length > 0) {
            if (whole) {
              // A moved record keeps its place in an upsert: the mall is written again whole, in
              // its new order, and a new `created` makes every replica read it whole.
              await query(client, 'DELETE FROM mall_records WHERE mall = $1', [mallId]);
              const [renewed] = await query<{ created: string }>(
                client,
                "UPDATE malls SET created = nextval('mall_versions') WHERE mall = $1 RETURNING created",
                [mallId],
              );
              created = Number(renewed?.created);
            }
            const [bumped] = await query<{ version: string }>(
              client,
              "UPDATE malls SET version = nextval('mall_versions') WHERE mall = $1 RETURNING version",
              [mallId],
            );
            version = Number(bumped?.version);
            const rows = whole ?? changes;
            if (rows.length > 0) await query(client, upsertRecords, [mallId, version, ...columnsOf(rows)]);
          }
          await query(client, 'COMMIT');
          apply(mall, whole ?? changes, whole !== undefined);
          mall.version = version;
          mall.created = created;
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch((rollbackError: unknown) => {
            broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
          });
          if (error instanceof StoreUnavailableError) broken ??= error;
          throw error;
        } finally {
          client.release(broken);
        }
      });
    },

    async catchUpAll(adopt, forget) {
      const rows = await query<VersionRow & { mall: string }>(
        pool,
        'SELECT mall, version, created FROM malls',
      );
      const inDatabase = new Set(rows.map((row) => row.mall));
      for (const mallId of [...held.keys()]) if (!inDatabase.has(mallId)) forget(mallId);
      for (const row of rows) if (!held.has(row.mall)) adopt(row.mall);
      await Promise.all(
        rows.map((row) => {
          const mall = heldMall(row.mall);
          return serially(mall, () => catchUp(pool, row.mall, mall, row));
        }),
      );
    },

    mallIds: async () =>
      (await query<{ mall: string }>(pool, 'SELECT mall FROM malls ORDER BY mall')).map((row) => row.mall),

    drop: async (mallId) =>
      (await query(pool, 'DELETE FROM malls WHERE mall = $1 RETURNING mall', [mallId])).length > 0,

    async ready() {
      try {
        await query(pool, 'SELECT 1');
        return true;
      } catch {
        return false;
      }
    },

    close: () => pool.end(),
  };
}

/** Writes changed records (a deleted one as a tombstone) with their version, in the order made. */
const upsertRecords = `
  INSERT INTO mall_records (mall, tbl, key, value, version)
  SELECT $1, c.tbl, c.key, c.value::json, $2
  FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS c (tbl, key, value, n)
  ORDER BY c.n
  ON CONFLICT (mall, tbl, key) DO UPDATE SET
    value = excluded.value,
    version = excluded.version,
    position = CASE WHEN mall_records.value IS NULL THEN excluded.position ELSE mall_records.position END`;

/** The changes as the three array parameters of {@link upsertRecords}. */
function columnsOf(changes: readonly Change[]): [string[], string[], (string | null)[]] {
  return [
    changes.map(([table]) => table),
    changes.map(([, key]) => key),
    changes.map(([, , value]) => (value === undefined ? null : JSON.stringify(value))),
  ];
}
