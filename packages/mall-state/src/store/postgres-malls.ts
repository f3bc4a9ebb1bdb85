// The sandbox malls on PostgreSQL, shared by every replica on the same database: the MallStorage
// contract over the state one replica holds (postgres-held.ts). A read catches its mall up first
// and answers runAsWrite when its work wrote; calls on one mall take turns in a replica. After each
// upkeep the sandbox hears of held malls another replica dropped. Which calls write is the sandbox's.
import { oneAtATime } from '../support/one-at-a-time.js';
import { type MallStorage, type Purged, runAsWrite, type SharedMallVersions } from './mall-storage.js';
import { catchUp, noDelta, readable, refresh, stateOf } from './postgres-catch-up.js';
import { capture, heldOrOpen, type PostgresState } from './postgres-held.js';
import { migrate } from './postgres-migrations.js';
import { openPostgresSession } from './postgres-session.js';
import { purge } from './postgres-upkeep.js';
import { drop, stage, write } from './postgres-writes.js';

/** The malls of one PostgreSQL database, as one replica sees them. */
export interface PostgresMalls extends MallStorage {
  /**
   * Purges old tombstones and loose row sets now, and tells the `observeGone` listener of the
   * malls this replica holds that the database no longer has (it also runs on a timer).
   */
  purge(): Promise<Purged>;
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

/** Default tombstone retention and upkeep period. */
const defaults = { tombstoneRetentionMs: 10 * 60 * 1000, upkeepEveryMs: 60 * 1000 };

/** Connects to the database at `url` (a pool), migrates its schema, and returns its malls. */
export async function openPostgresMalls(
  url: string,
  options: PostgresMallsOptions = {},
): Promise<PostgresMalls> {
  const session = await openPostgresSession(url, options.log ?? ((message) => console.error(message)));
  try {
    await migrate(session);
  } catch (error) {
    await session.pool.end();
    throw error;
  }
  const state: PostgresState = {
    session,
    held: new Map(),
    missing: new WeakMap(),
    serially: oneAtATime(),
    versions: options.versions,
    changed: undefined,
    gone: undefined,
  };
  const retentionMs = options.tombstoneRetentionMs ?? defaults.tombstoneRetentionMs;
  const upkeepEveryMs = options.upkeepEveryMs ?? defaults.upkeepEveryMs;
  const upkeepNow = () => upkeep(state, retentionMs);
  const mallsOf = async (text: string, values?: unknown[]) =>
    (await session.query<{ mall: string }>(session.pool, text, values)).map((row) => row.mall);
  const timer =
    upkeepEveryMs > 0 ? setInterval(() => void upkeepNow().catch(() => {}), upkeepEveryMs) : undefined;
  timer?.unref();
  return {
    open: (mallId) => heldOrOpen(state, mallId).store,
    read(mallId, work) {
      // Asked at once, so it leaves with whatever else this turn sends Redis; awaited in the turn.
      const announced = state.versions?.get(mallId);
      announced?.catch(() => {});
      return state.serially(mallId, async () => {
        const mall = await readable(state, mallId, announced);
        if (!mall) return runAsWrite;
        const { result, changes } = capture(mall, () => work(mall.store));
        return changes.length > 0 ? runAsWrite : result;
      });
    },
    write: (mallId, work) => write(state, mallId, work),
    current: (mallId) =>
      state.serially(mallId, async () => {
        const mall = await refresh(state, session.pool, mallId);
        return mall && { store: mall.store, version: mall.version, created: mall.created };
      }),
    stage: (mallId) => stage(state, mallId),
    catchUp: (mallIds, hooks) => catchUp(state, mallIds, hooks),
    mallIds: () => mallsOf('SELECT mall FROM malls ORDER BY mall'),
    // One probe of the records' primary key (rowset, tbl, …) per mall.
    mallsHolding: (table) =>
      mallsOf(
        'SELECT m.mall FROM malls m WHERE EXISTS (SELECT 1 FROM mall_records r WHERE r.rowset = m.rowset AND r.tbl = $1 AND r.value IS NOT NULL) ORDER BY m.mall',
        [table],
      ),
    drop: (mallId, stillUnused) => drop(state, mallId, stillUnused),
    purge: upkeepNow,
    observeGone(listener) {
      state.gone = listener;
    },
    observe(listener) {
      state.changed = listener;
    },
    ready: () =>
      session.query(session.pool, 'SELECT 1').then(
        () => true,
        () => false,
      ),
    close() {
      clearInterval(timer);
      return session.pool.end();
    },
  };
}

/** Purges, then tells `gone` of the held malls the database no longer has (each in its turn). */
async function upkeep(state: PostgresState, retentionMs: number): Promise<Purged> {
  const { session, held, serially } = state;
  const purged = await purge(session, retentionMs);
  if (state.gone && held.size > 0) {
    const rows = await session.query<{ mall: string }>(
      session.pool,
      'SELECT h.mall FROM unnest($1::text[]) AS h (mall) WHERE NOT EXISTS (SELECT 1 FROM malls m WHERE m.mall = h.mall)',
      [[...held.keys()]],
    );
    for (const { mall } of rows)
      await serially(mall, async () => {
        if (!held.has(mall) || (await stateOf(state, session.pool, mall, noDelta))) return;
        state.gone?.(mall);
        held.delete(mall);
      });
  }
  return purged;
}
