// The sandbox malls on PostgreSQL, shared by every replica that opens the same database. Each
// replica keeps a memory store per mall (so the synchronous services answer from memory) plus the
// mall's version it holds; a call first reads the database's version of its mall and the rows
// changed since, in one statement (one snapshot), and catches the copy up; when the mall was
// replaced (a reset, fixture or restore: a new row set) or tombstones it would need were purged,
// the replica reads the mall whole into a new memory store, a page of rows at a time, and takes it
// when complete — so it shows the old mall or the new one, never a mix. A call that writes runs in
// one database transaction holding the mall's row lock: catch up, run the work against memory
// collecting its puts and deletes (memory is put back as it was), write them with a new version,
// COMMIT, and only then apply them to memory — so memory only ever holds committed data. A whole
// new mall (reset, fixture, restore) is staged in memory off to the side, written as the mall's
// next row set in batches, made the mall's in one short transaction (refused, writing nothing,
// when the mall changed since a given version), and the old row set is deleted in chunks. Calls on
// one mall run one at a time in a replica. Upkeep (postgres-upkeep.ts) runs on a timer; after it,
// the sandbox hears of the malls this replica holds that another replica dropped, to forget them.
// A drop runs in the mall's turn under its row lock and deletes only when the caller's
// `stillUnused` says so there. With announced versions (mall-versions.ts, in Redis), every change
// announces its new version before it commits, and a read whose mall this replica holds at the
// announced version or later answers from memory without a database round trip. Not here: which calls write or how a mall starts (the sandbox, which answers from these stores, decides).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Awaitable } from '../malls/awaitable.js';
import { oneAtATime } from '../support/one-at-a-time.js';
import type { SharedMallVersions } from './mall-versions.js';
import { migrate } from './postgres-migrations.js';
import { openPostgresSession, type PostgresSession } from './postgres-session.js';
import { deleteRowset, purge } from './postgres-upkeep.js';
import type { Purged } from './purged.js';
import {
  clearStore,
  createMemoryStore,
  type SandboxStore,
  type StoredRecord,
  type TableName,
  tableNames,
} from './store.js';

/** What {@link PostgresMalls.read} answers when the call must run as a write instead. */
export const runAsWrite: unique symbol = Symbol('run as write');

/** A mall's caught-up store in this replica and the database version it holds. */
export interface MallVersion {
  readonly store: SandboxStore;
  readonly version: number;
  readonly created: number;
}

/** A mall's next records, staged in memory (see {@link PostgresMalls.stage}). */
export interface StagedMall {
  /** The new store, empty at first; the caller fills it in as many transactions as it likes. */
  readonly store: SandboxStore;
  /**
   * Writes the staged records as the mall's next row set (in batches) and makes it the mall's in
   * one short transaction, creating the mall if the database has none; with `expected`, only if
   * the mall is still at that version (false: it changed, nothing was written). `swapped` runs
   * just after, before any later call on the mall in this replica. Resolves once the old rows are
   * deleted (in chunks).
   */
  swap(expected: MallVersion | undefined, swapped: () => void): Promise<boolean>;
}

/** The malls of one PostgreSQL database, as one replica sees them. */
export interface PostgresMalls {
  /** The memory store of a mall in this replica (caught up by the first call on it). */
  open(mallId: string): SandboxStore;
  /**
   * Runs `work` on the mall's caught-up store without a lock; {@link runAsWrite} when the database
   * has no such mall or `work` wrote (its writes are undone: run it again with {@link write}).
   * The store may be a new one (the mall was replaced): the caller answers from the one given.
   */
  read<R>(mallId: string, work: (store: SandboxStore) => R): Promise<R | typeof runAsWrite>;
  /**
   * Runs `work` on the mall's store in a transaction holding the mall's row lock and commits its
   * writes; `fresh` is true when the mall did not exist (it is created here, empty). If `work`
   * throws, nothing is written and the error is rethrown.
   */
  write<R>(mallId: string, work: (store: SandboxStore, fresh: boolean) => R): Promise<R>;
  /** The mall's caught-up store and version; undefined when the database has no such mall. */
  current(mallId: string): Promise<MallVersion | undefined>;
  /** Starts the next records of a mall off to the side (reset, fixture, restore). */
  stage(mallId: string): StagedMall;
  /**
   * Catches up every mall of the database this replica holds; `adopt` is called for each mall
   * it does not hold yet (to open it), `forget` for each it holds that the database no longer has,
   * `current` with each mall's store once caught up (a new one when the mall was replaced).
   */
  catchUpAll(
    adopt: (mallId: string) => void,
    forget: (mallId: string) => void,
    current: (mallId: string, store: SandboxStore) => void,
  ): Promise<void>;
  /** {@link catchUpAll} for the malls `mallIds` only (a call that names them): the others are not read. */
  catchUpMalls(
    mallIds: readonly string[],
    adopt: (mallId: string) => void,
    forget: (mallId: string) => void,
    current: (mallId: string, store: SandboxStore) => void,
  ): Promise<void>;
  /** The database's malls, in id order. */
  mallIds(): Promise<string[]>;
  /**
   * Deletes a mall and its records, in the mall's turn and under its row lock; with
   * `stillUnused`, asked once under that lock (whether or not the database has the mall), only
   * when it answers true. False when nothing was deleted.
   */
  drop(mallId: string, stillUnused?: () => Awaitable<boolean>): Promise<boolean>;
  /**
   * Purges old tombstones and loose row sets now, and tells {@link observeGone}'s listener of the
   * malls this replica holds that the database no longer has (it also runs on a timer).
   */
  purge(): Promise<Purged>;
  /**
   * Sets who hears of a mall this replica holds that another replica dropped (found by upkeep),
   * so it can forget it: a replica holds only the malls in use. One listener; a later one replaces it.
   */
  observeGone(gone: (mallId: string) => void): void;
  /**
   * Sets who hears of every change to a table of a mall's store (a write or an undone one): the
   * indexes of whoever answers from the stores (the sandbox's). One listener; a later one replaces it.
   */
  observe(changed: (mallId: string, table: TableName) => void): void;
  /** Whether the database answers now. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Options of {@link openPostgresMalls}. */
export interface PostgresMallsOptions {
  /** Where an outage and its end are reported (default: console.error). */
  readonly log?: (message: string) => void;
  /** How long a tombstone is kept for replicas catching up by delta (default 10 minutes). */
  readonly tombstoneRetentionMs?: number;
  /** How often upkeep runs (default every minute; 0: only when {@link PostgresMalls.purge} is called). */
  readonly upkeepEveryMs?: number;
  /**
   * Where every replica announces each mall's newest version (Redis); without it, every read asks
   * the database whether its mall changed.
   */
  readonly versions?: SharedMallVersions;
}

type Change = readonly [table: TableName, key: string, value: StoredRecord | undefined];
type MallRow = { version: string; created: string; rowset: string; floor: string };
type RecordRow = { tbl: TableName; key: string; value: StoredRecord | null; version: string };
/** A mall's row and the rows of its row set changed since some version, read in one snapshot. */
type MallState = { readonly row: MallRow; readonly rows: RecordRow[] };

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
  /** The version the mall's current row set was made at (-1: nothing read yet). */
  created: number;
  rowset: string;
}

/** Rows per page when a mall is read whole, and per statement when a row set is written. */
const rowsPerBatch = 1_000;
/** About the most JSON one statement writing rows sends (characters). */
const bytesPerBatch = 256 * 1024;
/** A version above every real one: a delta "since" it is empty (only the mall's row is read). */
const noDelta = '9223372036854775807';
/** Default tombstone retention and upkeep period. */
const defaults = { tombstoneRetentionMs: 10 * 60 * 1000, upkeepEveryMs: 60 * 1000 };

/** Connects to the database at `url` (a pool), migrates its schema, and returns its malls. */
export async function openPostgresMalls(
  url: string,
  options: PostgresMallsOptions = {},
): Promise<PostgresMalls> {
  const session = await openPostgresSession(url, options.log ?? ((message) => console.error(message)));
  try {
    await migrate(session.pool);
  } catch (error) {
    await session.pool.end();
    throw error;
  }
  return postgresMalls(session, options);
}

/** The malls of a migrated database behind `session`. */
function postgresMalls(session: PostgresSession, options: PostgresMallsOptions): PostgresMalls {
  const { pool, query, transaction } = session;
  const held = new Map<string, Held>();
  const serially = oneAtATime();
  const retentionMs = options.tombstoneRetentionMs ?? defaults.tombstoneRetentionMs;
  const { versions } = options;
  let changed: ((mallId: string, table: TableName) => void) | undefined;
  let gone: ((mallId: string) => void) | undefined;

  /** A memory store for `mallId` whose writes {@link capture} collects; not yet the mall's. */
  const newHeld = (mallId: string): Held => {
    const mall: Held = {
      capturing: undefined,
      version: -1,
      created: -1,
      rowset: '',
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
        (table) => changed?.(mallId, table),
      ),
    };
    return mall;
  };
  const heldOrOpen = (mallId: string): Held => {
    let mall = held.get(mallId);
    if (!mall) {
      mall = newHeld(mallId);
      held.set(mallId, mall);
    }
    return mall;
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
  const newest = (rows: RecordRow[], version: number) =>
    rows.reduce((most, row) => Math.max(most, Number(row.version)), version);
  /** The mall's row and its current row set's rows changed since `since`, in one snapshot. */
  const stateOf = async (
    on: pg.Pool | pg.PoolClient,
    mallId: string,
    since: string,
  ): Promise<MallState | undefined> => {
    const rows = await query<
      MallRow & { tbl: TableName | null; key: string; value: StoredRecord | null; record_version: string }
    >(
      on,
      `SELECT m.version, m.created, m.rowset, m.floor, r.tbl, r.key, r.value, r.version AS record_version
       FROM malls m LEFT JOIN mall_records r ON r.rowset = m.rowset AND r.version > $2
       WHERE m.mall = $1 ORDER BY r.position`,
      [mallId, since],
    );
    const [first] = rows;
    if (!first) return undefined;
    return {
      row: first,
      rows: rows.flatMap((r) =>
        r.tbl === null ? [] : [{ tbl: r.tbl, key: r.key, value: r.value, version: r.record_version }],
      ),
    };
  };
  /** Whether `mall` can catch up with `row` by delta (same row set, no tombstone it needs purged). */
  const inStep = (mall: Held, row: MallRow) =>
    mall.created === Number(row.created) && mall.rowset === row.rowset && mall.version >= Number(row.floor);
  /**
   * Reads the mall whole into a new store, a page at a time, then the rows changed meanwhile, and
   * makes it the mall's; again from the start if the mall was replaced meanwhile. Undefined: the
   * database has no such mall any more.
   */
  const reload = async (
    on: pg.Pool | pg.PoolClient,
    mallId: string,
    row: MallRow,
  ): Promise<Held | undefined> => {
    let target = row;
    for (;;) {
      const next = newHeld(mallId);
      let after = '0';
      for (;;) {
        const page = await query<RecordRow & { position: string }>(
          on,
          `SELECT tbl, key, value, version, position FROM mall_records
           WHERE rowset = $1 AND value IS NOT NULL AND position > $2 ORDER BY position LIMIT $3`,
          [target.rowset, after, rowsPerBatch],
        );
        apply(next, changesOf(page));
        if (page.length < rowsPerBatch) break;
        after = page[page.length - 1]?.position ?? after;
      }
      const state = await stateOf(on, mallId, target.version);
      if (!state) return undefined;
      const stable =
        state.row.rowset === target.rowset &&
        state.row.created === target.created &&
        Number(state.row.floor) <= Number(target.version);
      if (!stable) {
        target = state.row;
        continue;
      }
      apply(next, changesOf(state.rows));
      next.version = newest(state.rows, Number(state.row.version));
      next.created = Number(state.row.created);
      next.rowset = state.row.rowset;
      held.set(mallId, next);
      return next;
    }
  };
  /** The mall caught up with the database (a new Held when read whole); undefined: no such mall. */
  const refresh = async (on: pg.Pool | pg.PoolClient, mallId: string): Promise<Held | undefined> => {
    const mall = heldOrOpen(mallId);
    const state = await stateOf(on, mallId, mall.created < 0 ? noDelta : String(mall.version));
    if (!state) return undefined;
    if (!inStep(mall, state.row)) return reload(on, mallId, state.row);
    apply(mall, changesOf(state.rows));
    mall.version = newest(state.rows, Math.max(mall.version, Number(state.row.version)));
    return mall;
  };
  /**
   * The mall as a read needs it: the copy held when it is at the `announced` version or later (no
   * database round trip), else caught up with the database — and announced, when nobody had.
   * During an outage the database is asked anyway, so reads are refused like writes until it is back.
   */
  const readable = async (
    mallId: string,
    announced: Promise<number | undefined> | undefined,
  ): Promise<Held | undefined> => {
    if (!announced) return refresh(pool, mallId);
    const version = await announced;
    const mall = held.get(mallId);
    if (mall && mall.created >= 0 && version !== undefined && mall.version >= version && !session.down())
      return mall;
    const caughtUp = await refresh(pool, mallId);
    if (caughtUp && version === undefined) await versions?.raise(mallId, caughtUp.version);
    return caughtUp;
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
        if (captured.moved) whole = [...recordsOf(mall.store)];
        throw undo;
      });
    } catch (error) {
      if (error !== undo) throw error;
    } finally {
      mall.capturing = undefined;
    }
    return { result: result as R, changes: [...captured.changes.values()], ...(whole ? { whole } : {}) };
  };
  /**
   * Writes `changes` into `rowset` at `version`, in statements of at most {@link rowsPerBatch}
   * rows or about {@link bytesPerBatch} of JSON, so no statement takes long to send.
   */
  const writeRows = async (
    on: pg.Pool | pg.PoolClient,
    rowset: string,
    version: number,
    changes: Iterable<Change>,
  ) => {
    let batch: string[] = [];
    let bytes = 0;
    const flush = async () => {
      if (batch.length > 0) await query(on, upsertRecords, [rowset, version, `[${batch.join(',')}]`]);
      batch = [];
      bytes = 0;
    };
    for (const change of changes) {
      const row = JSON.stringify(change[2] === undefined ? [change[0], change[1], null] : change);
      batch.push(row);
      bytes += row.length;
      if (batch.length === rowsPerBatch || bytes >= bytesPerBatch) await flush();
    }
    await flush();
  };
  /**
   * Creates the mall's row unless it exists (a new, empty mall with a row set of its own), then
   * locks it. A drop that commits between the two leaves nothing to lock: the next round makes the
   * mall anew, as a write after the drop would.
   */
  const lockMall = async (client: pg.PoolClient, mallId: string) => {
    for (let round = 0; round < 3; round++) {
      await query(
        client,
        `INSERT INTO malls (mall, version, created, rowset)
         SELECT $1, v, v, $1 || '@' || v FROM nextval('mall_versions') AS v ON CONFLICT (mall) DO NOTHING`,
        [mallId],
      );
      const [row] = await query<MallRow>(
        client,
        'SELECT version, created, rowset, floor FROM malls WHERE mall = $1 FOR UPDATE',
        [mallId],
      );
      if (row) return row;
    }
    throw session.failed(new Error(`mall ${mallId} vanished while it was being written`));
  };
  /** The mall changed since the version a staged change started from: roll back, write nothing. */
  const changedSince = new Error('the mall changed');

  /**
   * Catches up the malls of `rows` (the database's rows of the malls looked at, `considered`):
   * forgets those held that the database lacks, adopts those not held, refreshes those behind.
   */
  const catchUp = async (
    rows: (MallRow & { mall: string })[],
    considered: readonly string[],
    hooks: {
      adopt: (mallId: string) => void;
      forget: (mallId: string) => void;
      current: (mallId: string, store: SandboxStore) => void;
    },
  ) => {
    const inDatabase = new Set(rows.map((row) => row.mall));
    for (const mallId of considered) if (held.has(mallId) && !inDatabase.has(mallId)) hooks.forget(mallId);
    for (const row of rows) if (!held.has(row.mall)) hooks.adopt(row.mall);
    await Promise.all(
      rows.map((row) =>
        serially(row.mall, async () => {
          const mall = held.get(row.mall);
          if (mall && inStep(mall, row) && mall.version >= Number(row.version)) return;
          const caughtUp = await refresh(pool, row.mall);
          if (caughtUp) hooks.current(row.mall, caughtUp.store);
        }),
      ),
    );
  };
  /** Purges, then tells `gone` of the held malls the database no longer has (each in its turn). */
  const upkeepNow = async () => {
    const purged = await purge(session, retentionMs);
    if (gone && held.size > 0) {
      const rows = await query<{ mall: string }>(
        pool,
        'SELECT h.mall FROM unnest($1::text[]) AS h (mall) WHERE NOT EXISTS (SELECT 1 FROM malls m WHERE m.mall = h.mall)',
        [[...held.keys()]],
      );
      for (const { mall } of rows)
        await serially(mall, async () => {
          if (!held.has(mall) || (await stateOf(pool, mall, noDelta))) return;
          gone?.(mall);
          held.delete(mall);
        });
    }
    return purged;
  };
  const upkeep =
    (options.upkeepEveryMs ?? defaults.upkeepEveryMs) > 0
      ? setInterval(() => void upkeepNow().catch(() => {}), options.upkeepEveryMs ?? defaults.upkeepEveryMs)
      : undefined;
  upkeep?.unref();

  return {
    open: (mallId) => heldOrOpen(mallId).store,

    read(mallId, work) {
      // Asked at once, so it leaves with whatever else this turn sends Redis; awaited in the turn.
      const announced = versions?.get(mallId);
      announced?.catch(() => {});
      return serially(mallId, async () => {
        const mall = await readable(mallId, announced);
        if (!mall) return runAsWrite;
        const { result, changes } = capture(mall, () => work(mall.store));
        return changes.length > 0 ? runAsWrite : result;
      });
    },

    write: (mallId, work) =>
      serially(mallId, async () => {
        const { mall, result, applied } = await transaction(async (client) => {
          const row = await lockMall(client, mallId);
          const fresh = row.version === row.created;
          const caughtUp = await refresh(client, mallId);
          if (!caughtUp)
            throw session.failed(new Error(`mall ${mallId} vanished while it was being written`));
          const { result, changes, whole } = capture(caughtUp, () => work(caughtUp.store, fresh));
          let { version, created } = caughtUp;
          if (fresh || changes.length > 0) {
            if (whole) {
              // A moved record keeps its place in an upsert: the mall is written again whole, in
              // its new order, and a new `created` makes every replica read it whole.
              await query(client, 'DELETE FROM mall_records WHERE rowset = $1', [row.rowset]);
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
            await writeRows(client, row.rowset, version, whole ?? changes);
            await versions?.raise(mallId, version);
          }
          return {
            mall: caughtUp,
            result,
            applied: { changes: whole ?? changes, whole: !!whole, version, created },
          };
        });
        apply(mall, applied.changes, applied.whole);
        mall.version = applied.version;
        mall.created = applied.created;
        return result;
      }),

    current: (mallId) =>
      serially(mallId, async () => {
        const mall = await refresh(pool, mallId);
        return mall && { store: mall.store, version: mall.version, created: mall.created };
      }),

    stage(mallId) {
      const next = newHeld(mallId);
      return {
        store: next.store,
        async swap(expected, swapped) {
          const rowset = `${mallId}@${randomUUID()}`;
          let old: string | undefined;
          try {
            await query(pool, 'INSERT INTO loose_rowsets (rowset) VALUES ($1)', [rowset]);
            // Version 0: every replica reads a new row set whole, so no delta ever asks for these rows.
            await writeRows(pool, rowset, 0, recordsOf(next.store));
            old = await serially(mallId, () =>
              transaction(async (client) => {
                const row = await lockMall(client, mallId);
                if (
                  expected &&
                  (Number(row.version) !== expected.version || Number(row.created) !== expected.created)
                )
                  throw changedSince;
                const [made] = await query<MallRow>(
                  client,
                  `UPDATE malls SET rowset = $2, created = nextval('mall_versions'), version = nextval('mall_versions')
                   WHERE mall = $1 RETURNING version, created, rowset, floor`,
                  [mallId, rowset],
                );
                await versions?.raise(mallId, Number(made?.version));
                await query(
                  client,
                  'WITH placed AS (DELETE FROM loose_rowsets WHERE rowset = $1) INSERT INTO loose_rowsets (rowset) VALUES ($2) ON CONFLICT DO NOTHING',
                  [rowset, row.rowset],
                );
                return { made, old: row.rowset };
              }).then(({ made, old }) => {
                next.version = Number(made?.version);
                next.created = Number(made?.created);
                next.rowset = rowset;
                held.set(mallId, next);
                swapped();
                return old;
              }),
            );
          } catch (error) {
            // Not the mall's: its rows go now (or, if the database is gone, by a later upkeep).
            await deleteRowset(session, rowset).catch(() => {});
            if (error === changedSince) return false;
            throw error;
          }
          if (old !== undefined) await deleteRowset(session, old);
          return true;
        },
      };
    },

    catchUpAll: async (adopt, forget, current) =>
      catchUp(
        await query<MallRow & { mall: string }>(
          pool,
          'SELECT mall, version, created, rowset, floor FROM malls',
        ),
        [...held.keys()],
        { adopt, forget, current },
      ),

    catchUpMalls: async (mallIds, adopt, forget, current) =>
      catchUp(
        await query<MallRow & { mall: string }>(
          pool,
          'SELECT mall, version, created, rowset, floor FROM malls WHERE mall = ANY($1::text[])',
          [[...mallIds]],
        ),
        mallIds,
        { adopt, forget, current },
      ),

    mallIds: async () =>
      (await query<{ mall: string }>(pool, 'SELECT mall FROM malls ORDER BY mall')).map((row) => row.mall),

    async drop(mallId, stillUnused) {
      // In the mall's turn and under its row lock, which every write holds until it commits: a
      // write that marked the mall used before it began is seen by `stillUnused`, or waits for
      // the drop and then makes the mall anew (its rows are a new row set).
      const gone = await serially(mallId, () =>
        transaction(async (client) => {
          const [row] = await query<{ rowset: string }>(
            client,
            'SELECT rowset FROM malls WHERE mall = $1 FOR UPDATE',
            [mallId],
          );
          if ((stillUnused && !(await stillUnused())) || !row) return undefined;
          // A version above the mall's last: a replica holding the mall asks the database again.
          const [next] = await query<{ version: string }>(
            client,
            "SELECT nextval('mall_versions') AS version",
          );
          await versions?.raise(mallId, Number(next?.version));
          await query(
            client,
            `WITH gone AS (DELETE FROM malls WHERE mall = $1 RETURNING rowset)
             INSERT INTO loose_rowsets (rowset) SELECT rowset FROM gone ON CONFLICT DO NOTHING`,
            [mallId],
          );
          return row.rowset;
        }),
      );
      if (gone === undefined) return false;
      await deleteRowset(session, gone);
      return true;
    },

    purge: upkeepNow,

    observeGone(listener) {
      gone = listener;
    },

    observe(listener) {
      changed = listener;
    },

    async ready() {
      try {
        await query(pool, 'SELECT 1');
        return true;
      } catch {
        return false;
      }
    },

    close() {
      clearInterval(upkeep);
      return pool.end();
    },
  };
}

/** Every record of a store as changes, table by table, in order. */
function* recordsOf(store: SandboxStore): Generator<Change> {
  for (const table of tableNames) for (const [key, value] of store.entries(table)) yield [table, key, value];
}

/**
 * Writes changed records (a deleted one as a tombstone) with their version, in the order made;
 * `$3` is one JSON array of `[table, key, record or null]` (one string: nothing to escape per row).
 */
const upsertRecords = `
  INSERT INTO mall_records (rowset, tbl, key, value, version)
  SELECT $1, c.row->>0, c.row->>1, CASE WHEN json_typeof(c.row->2) = 'null' THEN NULL ELSE c.row->2 END, $2
  FROM json_array_elements($3::json) WITH ORDINALITY AS c (row, n)
  ORDER BY c.n
  ON CONFLICT (rowset, tbl, key) DO UPDATE SET
    value = excluded.value,
    version = excluded.version,
    changed_at = now(),
    position = CASE WHEN mall_records.value IS NULL THEN excluded.position ELSE mall_records.position END`;
