// Bringing a replica's copy of a PostgreSQL mall up to the database: the mall's version and the
// rows changed since, read in one snapshot; when the mall was replaced (a new row set) or tombstones
// it needs were purged, it is read whole into a new store, a page at a time, and taken once
// complete, so a replica shows the old mall or the new one, never a mix. With announced versions
// (SharedMallVersions) a read, or a call over several malls, held as announced skips the database.
import type pg from 'pg';
import type { CatchUpHooks } from './mall-storage.js';
import { apply, type Change, type Held, heldOrOpen, newHeld, type PostgresState } from './postgres-held.js';
import type { StoredRecord, StoreTable } from './store.js';

/** A mall's row in the `malls` table. */
export type MallRow = { version: string; created: string; rowset: string; floor: string };
type RecordRow = { tbl: StoreTable; key: string; value: StoredRecord | null; version: string };
/** A mall's row and the rows of its row set changed since some version, read in one snapshot. */
type MallState = { readonly row: MallRow; readonly rows: RecordRow[] };
type Connection = pg.Pool | pg.PoolClient;

/** Rows per page when a mall is read whole. */
const rowsPerPage = 1_000;
/** A version above every real one: a delta "since" it is empty (only the mall's row is read). */
export const noDelta = '9223372036854775807';

const changesOf = (rows: RecordRow[]): Change[] =>
  rows.map((row) => [row.tbl, row.key, row.value ?? undefined]);
const newest = (rows: RecordRow[], version: number) =>
  rows.reduce((most, row) => Math.max(most, Number(row.version)), version);

/** The mall's row and its current row set's rows changed since `since`, in one snapshot. */
export async function stateOf(
  state: PostgresState,
  on: Connection,
  mallId: string,
  since: string,
): Promise<MallState | undefined> {
  const rows = await state.session.query<
    MallRow & { tbl: StoreTable | null; key: string; value: StoredRecord | null; record_version: string }
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
}

/** Whether `mall` can catch up with `row` by delta (same row set, no tombstone it needs purged). */
const inStep = (mall: Held, row: MallRow) =>
  mall.created === Number(row.created) && mall.rowset === row.rowset && mall.version >= Number(row.floor);

/**
 * Reads the mall whole into a new store, a page at a time, then the rows changed meanwhile, and
 * makes it the mall's; again from the start if the mall was replaced meanwhile. Undefined: the
 * database has no such mall any more.
 */
async function reload(
  state: PostgresState,
  on: Connection,
  mallId: string,
  row: MallRow,
): Promise<Held | undefined> {
  let target = row;
  for (;;) {
    const next = newHeld(state, mallId);
    let after = '0';
    for (;;) {
      const page = await state.session.query<RecordRow & { position: string }>(
        on,
        `SELECT tbl, key, value, version, position FROM mall_records
         WHERE rowset = $1 AND value IS NOT NULL AND position > $2 ORDER BY position LIMIT $3`,
        [target.rowset, after, rowsPerPage],
      );
      apply(next, changesOf(page));
      if (page.length < rowsPerPage) break;
      after = page[page.length - 1]?.position ?? after;
    }
    const now = await stateOf(state, on, mallId, target.version);
    if (!now) return undefined;
    const stable =
      now.row.rowset === target.rowset &&
      now.row.created === target.created &&
      Number(now.row.floor) <= Number(target.version);
    if (!stable) {
      target = now.row;
      continue;
    }
    apply(next, changesOf(now.rows));
    next.version = newest(now.rows, Number(now.row.version));
    next.created = Number(now.row.created);
    next.rowset = now.row.rowset;
    state.held.set(mallId, next);
    return next;
  }
}

/** The mall caught up with the database (a new Held when read whole); undefined: no such mall. */
export async function refresh(
  state: PostgresState,
  on: Connection,
  mallId: string,
): Promise<Held | undefined> {
  const mall = heldOrOpen(state, mallId);
  const now = await stateOf(state, on, mallId, mall.created < 0 ? noDelta : String(mall.version));
  if (!now) return undefined;
  if (!inStep(mall, now.row)) return reload(state, on, mallId, now.row);
  apply(mall, changesOf(now.rows));
  mall.version = newest(now.rows, Math.max(mall.version, Number(now.row.version)));
  return mall;
}

/**
 * The mall as a read needs it: the copy held when it is at the `announced` version or later (no
 * database round trip), else caught up with the database — and announced, when nobody had.
 * During an outage the database is asked anyway, so reads are refused like writes until it is back.
 */
export async function readable(
  state: PostgresState,
  mallId: string,
  announced: Promise<number | undefined> | undefined,
): Promise<Held | undefined> {
  const { pool } = state.session;
  if (!announced) return refresh(state, pool, mallId);
  const version = await announced;
  const mall = state.held.get(mallId);
  if (mall && mall.created >= 0 && version !== undefined && mall.version >= version && !state.session.down())
    return mall;
  const caughtUp = await refresh(state, pool, mallId);
  if (caughtUp && version === undefined) await state.versions?.raise(mallId, caughtUp.version);
  return caughtUp;
}

/**
 * Whether this replica holds the malls `mallIds` names (undefined: every mall announced, and no
 * other) at their `announced` versions, so a catch-up has nothing to do. A mall held but not read
 * yet, or not announced (a drop under way, announcements lost), is not.
 */
function heldAsAnnounced(
  held: ReadonlyMap<string, Held>,
  mallIds: readonly string[] | undefined,
  announced: ReadonlyMap<string, number>,
): boolean {
  if (!mallIds && [...held.keys()].some((mallId) => !announced.has(mallId))) return false;
  for (const mallId of mallIds ?? announced.keys()) {
    const version = announced.get(mallId);
    const mall = held.get(mallId);
    if (version === undefined || !mall || mall.created < 0 || mall.version < version) return false;
  }
  return true;
}

/** The most names of malls the database lacked that a replica keeps (made-up names are endless). */
export const keptMissing = 1024;

/**
 * Catches up the malls `mallIds` names (undefined: every mall of the database): forgets those
 * held that the database lacks, adopts those not held, refreshes those behind. With announced
 * versions it asks the database only when some mall is not held as announced, and then announces
 * the malls it found that nobody had (their committed versions).
 */
export async function catchUp(
  state: PostgresState,
  mallIds: readonly string[] | undefined,
  hooks: CatchUpHooks,
): Promise<void> {
  const { session, held, serially, versions, missing } = state;
  const announced = versions && (await versions.all());
  // During an outage the database is asked anyway, so calls are refused until it is back. A named
  // mall the database lacked under these same announcements (none changed since) still lacks it.
  const named = announced && mallIds?.filter((mallId) => !missing.get(announced)?.has(mallId));
  if (announced && !session.down() && heldAsAnnounced(held, named, announced)) return;
  const columns = 'SELECT mall, version, created, rowset, floor FROM malls';
  const rows = await session.query<MallRow & { mall: string }>(
    session.pool,
    mallIds ? `${columns} WHERE mall = ANY($1::text[])` : columns,
    mallIds ? [[...mallIds]] : [],
  );
  const inDatabase = new Set(rows.map((row) => row.mall));
  if (announced && mallIds) {
    const lacking = mallIds.filter((mallId) => !inDatabase.has(mallId) && !announced.has(mallId));
    if (lacking.length > 0) {
      // At most `keptMissing` names: past that, those met before are asked for again.
      const known = missing.get(announced);
      const names = known && known.size + lacking.length <= keptMissing ? known : new Set<string>();
      for (const mallId of lacking) names.add(mallId);
      missing.set(announced, names);
    }
  }
  for (const mallId of mallIds ?? [...held.keys()])
    if (held.has(mallId) && !inDatabase.has(mallId)) hooks.forget(mallId);
  for (const row of rows) if (!held.has(row.mall)) hooks.adopt(row.mall);
  await Promise.all(
    rows.map((row) =>
      serially(row.mall, async () => {
        const mall = held.get(row.mall);
        if (mall && inStep(mall, row) && mall.version >= Number(row.version)) return;
        const caughtUp = await refresh(state, session.pool, row.mall);
        if (caughtUp) hooks.current(row.mall, caughtUp.store);
      }),
    ),
  );
  const unannounced = announced ? rows.filter((row) => !announced.has(row.mall)) : [];
  await Promise.all(unannounced.map((row) => versions?.raise(row.mall, Number(row.version))));
}
