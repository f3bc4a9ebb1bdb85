// How a replica changes a PostgreSQL mall. A call that writes runs in one database transaction
// holding the mall's row lock: catch up, run the work against memory collecting its puts and
// deletes (memory is put back as it was), write them with a new version, COMMIT, and only then
// apply them to memory. A whole new mall (reset, fixture, restore) is staged in memory off to the
// side, written as the mall's next row set in batches, made the mall's in one short transaction
// (refused, writing nothing, when the mall changed since a given version), and the old row set is
// deleted in chunks. A drop runs in the mall's turn under its row lock and deletes only when the
// caller's `stillUnused` says so there. Every change announces its new version before it commits.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { StillUnused } from '../malls/mall-roster.js';
import type { StagedMall } from './mall-storage.js';
import { type MallRow, refresh } from './postgres-catch-up.js';
import {
  apply,
  type Change,
  capture,
  type Held,
  newHeld,
  type PostgresState,
  recordsOf,
} from './postgres-held.js';
import { deleteRowset } from './postgres-upkeep.js';

/** Rows per statement when a row set is written. */
const rowsPerBatch = 1_000;
/** About the most JSON one statement writing rows sends (characters). */
const bytesPerBatch = 256 * 1024;
/** The mall changed since the version a staged change started from: roll back, write nothing. */
const changedSince = new Error('the mall changed');

/** Runs `work` on the mall's store in a transaction under its row lock and commits its writes. */
export function write<R>(
  state: PostgresState,
  mallId: string,
  work: (store: Held['store'], fresh: boolean) => R,
): Promise<R> {
  const { session, versions } = state;
  const { query } = session;
  return state.serially(mallId, async () => {
    const done = await session.transaction(async (client) => {
      const row = await lockMall(state, client, mallId);
      const fresh = row.version === row.created;
      const caughtUp = await refresh(state, client, mallId);
      if (!caughtUp) throw session.failed(new Error(`mall ${mallId} vanished while it was being written`));
      const { result, changes, whole } = capture(caughtUp, () => work(caughtUp.store, fresh));
      let { version, created } = caughtUp;
      if (fresh || changes.length > 0) {
        if (whole) {
          // A moved record keeps its place in an upsert: the mall is written again whole, in its
          // new order, and a new `created` makes every replica read it whole.
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
        await writeRows(state, client, row.rowset, version, whole ?? changes);
        await versions?.raise(mallId, version);
      }
      return { mall: caughtUp, result, changes: whole ?? changes, whole: !!whole, version, created };
    });
    apply(done.mall, done.changes, done.whole);
    done.mall.version = done.version;
    done.mall.created = done.created;
    return done.result;
  });
}

/** Starts the next records of a mall in memory; its swap writes them as the mall's next row set. */
export function stage(state: PostgresState, mallId: string): StagedMall {
  const { session, versions } = state;
  const { query } = session;
  const next = newHeld(state, mallId);
  /** Makes `rowset` the mall's under its row lock (unless it changed since `expected`); the old row set. */
  const point = (rowset: string, expected: Parameters<StagedMall['swap']>[0]) =>
    session.transaction(async (client) => {
      const row = await lockMall(state, client, mallId);
      if (expected && (Number(row.version) !== expected.version || Number(row.created) !== expected.created))
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
    });
  return {
    store: next.store,
    async swap(expected, swapped) {
      const rowset = `${mallId}@${randomUUID()}`;
      let old: string;
      try {
        await query(session.pool, 'INSERT INTO loose_rowsets (rowset) VALUES ($1)', [rowset]);
        // Version 0: every replica reads a new row set whole, so no delta ever asks for these rows.
        await writeRows(state, session.pool, rowset, 0, recordsOf(next.store));
        old = await state.serially(mallId, async () => {
          const { made, old } = await point(rowset, expected);
          next.version = Number(made?.version);
          next.created = Number(made?.created);
          next.rowset = rowset;
          state.held.set(mallId, next);
          swapped();
          return old;
        });
      } catch (error) {
        // Not the mall's: its rows go now (or, if the database is gone, by a later upkeep).
        await deleteRowset(session, rowset).catch(() => {});
        if (error === changedSince) return false;
        throw error;
      }
      await deleteRowset(session, old);
      return true;
    },
    // Nothing is written before the swap.
    discard: async () => {},
  };
}

/**
 * Deletes a mall and its records in its turn and under its row lock, which every write holds
 * until it commits: a write that marked the mall used before it began is seen by `stillUnused`,
 * or waits for the drop and then makes the mall anew (its rows are a new row set).
 */
export async function drop(
  state: PostgresState,
  mallId: string,
  stillUnused?: StillUnused,
): Promise<boolean> {
  const { session, versions } = state;
  const { query } = session;
  const gone = await state.serially(mallId, () =>
    session.transaction(async (client) => {
      const [row] = await query<{ rowset: string }>(
        client,
        'SELECT rowset FROM malls WHERE mall = $1 FOR UPDATE',
        [mallId],
      );
      if ((stillUnused && !(await stillUnused())) || !row) return undefined;
      // Taken once the row is locked, so it is above the mall's last: a replica holding the mall
      // asks the database again.
      const [next] = await query<{ version: string }>(client, "SELECT nextval('mall_versions') AS version");
      const version = Number(next?.version);
      await versions?.raise(mallId, version);
      await query(
        client,
        `WITH gone AS (DELETE FROM malls WHERE mall = $1 RETURNING rowset)
         INSERT INTO loose_rowsets (rowset) SELECT rowset FROM gone ON CONFLICT DO NOTHING`,
        [mallId],
      );
      return { rowset: row.rowset, version };
    }),
  );
  if (gone === undefined) return false;
  // Left announced (Redis failed here), the mall only makes calls over every mall ask the database.
  await versions?.forget(mallId, gone.version).catch(() => {});
  await deleteRowset(session, gone.rowset);
  return true;
}

/**
 * Creates the mall's row unless it exists (a new, empty mall with a row set of its own), then locks
 * it for the transaction; its columns. A drop that commits between the two leaves nothing to lock:
 * the next round makes the mall anew, as a write after the drop would.
 */
async function lockMall(state: PostgresState, client: pg.PoolClient, mallId: string): Promise<MallRow> {
  for (let round = 0; round < 3; round++) {
    await state.session.query(
      client,
      `INSERT INTO malls (mall, version, created, rowset)
       SELECT $1, v, v, $1 || '@' || v FROM nextval('mall_versions') AS v ON CONFLICT (mall) DO NOTHING`,
      [mallId],
    );
    const [row] = await state.session.query<MallRow>(
      client,
      'SELECT version, created, rowset, floor FROM malls WHERE mall = $1 FOR UPDATE',
      [mallId],
    );
    if (row) return row;
  }
  throw state.session.failed(new Error(`mall ${mallId} vanished while it was being written`));
}

/**
 * Writes `changes` into `rowset` at `version`, in statements of at most {@link rowsPerBatch}
 * rows or about {@link bytesPerBatch} of JSON, so no statement takes long to send.
 */
async function writeRows(
  state: PostgresState,
  on: pg.Pool | pg.PoolClient,
  rowset: string,
  version: number,
  changes: Iterable<Change>,
): Promise<void> {
  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length > 0)
      await state.session.query(on, upsertRecords, [rowset, version, `[${batch.join(',')}]`]);
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
