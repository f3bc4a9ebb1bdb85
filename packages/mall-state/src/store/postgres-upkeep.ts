// Keeping the sandbox's PostgreSQL tables from growing: row sets no mall points at (a generation
// replaced by a reset, fixture or restore, a dropped mall, a generation a stopped replica never
// finished) are deleted in chunks, and tombstones older than the retention are purged, the mall's
// `floor` raised to the newest version purged in the same transaction (a replica holding an older
// version then reads the mall whole: purging never makes a replica miss a deletion). Each mall is
// purged in its own short transaction that locks its `malls` row first, the order writes take
// locks in. Not here: when upkeep runs (postgres-malls.ts runs it on a timer).

import type { Purged } from './mall-storage.js';
import type { PostgresSession } from './postgres-session.js';

/** Rows deleted per statement when a row set goes (the database's work, in short statements). */
const rowsPerDelete = 2_000;

/** How old a loose row set is before any replica deletes it (its writer stopped mid-way). */
const looseAgeMs = 60 * 60 * 1000;

/** Deletes the rows of `rowset` a chunk per statement, then its entry in `loose_rowsets`. */
export async function deleteRowset(session: PostgresSession, rowset: string): Promise<void> {
  for (;;) {
    const [deleted] = await session.query<{ n: number }>(
      session.pool,
      `WITH gone AS (
         DELETE FROM mall_records WHERE ctid IN (SELECT ctid FROM mall_records WHERE rowset = $1 LIMIT $2)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [rowset, rowsPerDelete],
    );
    if ((deleted?.n ?? 0) < rowsPerDelete) break;
  }
  await session.query(session.pool, 'DELETE FROM loose_rowsets WHERE rowset = $1', [rowset]);
}

/**
 * Purges the tombstones older than `tombstoneRetentionMs` (by the database's clock) and deletes
 * the row sets loose for longer than {@link looseAgeMs}.
 */
export async function purge(session: PostgresSession, tombstoneRetentionMs: number): Promise<Purged> {
  const { pool, query } = session;
  const malls = await query<{ mall: string }>(
    pool,
    `SELECT DISTINCT m.mall FROM mall_records r JOIN malls m ON m.rowset = r.rowset
     WHERE r.value IS NULL AND r.changed_at < now() - make_interval(secs => $1)`,
    [tombstoneRetentionMs / 1000],
  );
  let tombstones = 0;
  for (const { mall } of malls) tombstones += await purgeMall(session, mall, tombstoneRetentionMs);
  const loose = await query<{ rowset: string }>(
    pool,
    'SELECT rowset FROM loose_rowsets WHERE since < now() - make_interval(secs => $1)',
    [looseAgeMs / 1000],
  );
  for (const { rowset } of loose) await deleteRowset(session, rowset);
  return { tombstones, rowsets: loose.length };
}

/** Purges one mall's old tombstones under its row lock; how many. */
function purgeMall(session: PostgresSession, mall: string, retentionMs: number): Promise<number> {
  return session.transaction(async (client) => {
    const [locked] = await session.query<{ rowset: string }>(
      client,
      'SELECT rowset FROM malls WHERE mall = $1 FOR UPDATE',
      [mall],
    );
    if (!locked) return 0;
    const [row] = await session.query<{ purged: number }>(
      client,
      `WITH gone AS (
         DELETE FROM mall_records
         WHERE rowset = $2 AND value IS NULL AND changed_at < now() - make_interval(secs => $3)
         RETURNING version),
       raised AS (
         UPDATE malls SET floor = greatest(floor, (SELECT max(version) FROM gone))
         WHERE mall = $1 AND EXISTS (SELECT 1 FROM gone) RETURNING 1)
       SELECT (SELECT count(*) FROM gone)::int AS purged, (SELECT count(*) FROM raised)::int AS raised`,
      [mall, locked.rowset, retentionMs / 1000],
    );
    return row?.purged ?? 0;
  });
}
