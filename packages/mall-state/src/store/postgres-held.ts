// The malls one replica holds from PostgreSQL: the state every PostgreSQL operation shares (the
// session, each held mall's memory store and version, the listeners), and the memory side of a
// held mall — applying rows read from the database, and running a call's work with its writes
// collected and undone, so memory only ever holds committed data. Not here: the SQL.

import type { OneAtATime } from '../support/one-at-a-time.js';
import type { SharedMallVersions } from './mall-storage.js';
import type { PostgresSession } from './postgres-session.js';
import {
  clearStore,
  createMemoryStore,
  eventTableNames,
  type SandboxStore,
  type StoredRecord,
  type StoreTable,
  tableNames,
} from './store.js';

/** A change to one record: its new value, or undefined for a deletion. */
export type Change = readonly [table: StoreTable, key: string, value: StoredRecord | undefined];

/** The writes of one call: the last change of each table and key, in order of first change. */
interface Captured {
  readonly changes: Map<string, Change>;
  /** Whether a record was deleted and written again (in memory it moved to the end of its table). */
  moved: boolean;
}

/** One mall as this replica holds it. */
export interface Held {
  readonly store: SandboxStore;
  /** What `work` wrote while {@link capture} runs. */
  capturing: Captured | undefined;
  version: number;
  /** The version the mall's current row set was made at (-1: nothing read yet). */
  created: number;
  rowset: string;
}

/** What the PostgreSQL malls of one replica share. */
export interface PostgresState {
  readonly session: PostgresSession;
  readonly held: Map<string, Held>;
  /** Calls on one mall take turns in a replica. */
  readonly serially: OneAtATime;
  readonly versions: SharedMallVersions | undefined;
  /**
   * The malls a catch-up found missing from the database, by the announced versions it was made
   * under (the same copy while no mall's announcement changed; a new one after any change).
   */
  readonly missing: WeakMap<ReadonlyMap<string, number>, Set<string>>;
  changed: ((mallId: string, table: StoreTable) => void) | undefined;
  gone: ((mallId: string) => void) | undefined;
}

/** A memory store for `mallId` whose writes {@link capture} collects; not yet the mall's. */
export function newHeld(state: PostgresState, mallId: string): Held {
  const collect = (table: StoreTable, key: string, value: StoredRecord | undefined) => {
    const captured = mall.capturing;
    if (!captured) return;
    const id = `${table}\u0000${key}`;
    if (value !== undefined && captured.changes.has(id) && captured.changes.get(id)?.[2] === undefined)
      captured.moved = true;
    captured.changes.set(id, [table, key, value]);
  };
  const mall: Held = {
    capturing: undefined,
    version: -1,
    created: -1,
    rowset: '',
    store: createMemoryStore(
      {
        begin: () => {},
        put: collect,
        delete: (table, key) => collect(table, key, undefined),
        commit: () => {},
        rollback: () => {},
        close: () => {
          if (state.held.get(mallId) === mall) state.held.delete(mallId);
        },
      },
      [],
      (table) => state.changed?.(mallId, table),
    ),
  };
  return mall;
}

/** The mall held here, opened (empty, nothing read yet) when none is. */
export function heldOrOpen(state: PostgresState, mallId: string): Held {
  let mall = state.held.get(mallId);
  if (!mall) {
    mall = newHeld(state, mallId);
    state.held.set(mallId, mall);
  }
  return mall;
}

/** Applies rows or changes to a held store (outside any capture: nothing is collected). */
export function apply(mall: Held, changes: Iterable<Change>, fromEmpty = false): void {
  mall.store.transaction(() => {
    if (fromEmpty) clearStore(mall.store);
    for (const [table, key, value] of changes)
      if (value === undefined) mall.store.delete(table, key);
      else mall.store.put(table, key, value);
  });
}

/** What {@link capture} throws to undo the writes it collected (one, made once). */
const undo = new Error('collected');

/**
 * Runs `work` on the store, collecting its writes, then undoes them in memory (a `work` that wrote
 * nothing has nothing to undo). When a record was deleted and written again (it moved), `whole` is
 * every record as `work` left them, in order.
 */
export function capture<R>(mall: Held, work: () => R): { result: R; changes: Change[]; whole?: Change[] } {
  const captured: Captured = { changes: new Map(), moved: false };
  let result: R | undefined;
  let whole: Change[] | undefined;
  mall.capturing = captured;
  try {
    mall.store.transaction(() => {
      result = work();
      // Nothing written (a read): nothing to undo, so no throw.
      if (captured.changes.size === 0) return;
      if (captured.moved) whole = [...recordsOf(mall.store)];
      throw undo;
    });
  } catch (error) {
    if (error !== undo) throw error;
  } finally {
    mall.capturing = undefined;
  }
  return { result: result as R, changes: [...captured.changes.values()], ...(whole ? { whole } : {}) };
}

/** Every record of a store as changes, table by table, in order. */
export function* recordsOf(store: SandboxStore): Generator<Change> {
  for (const table of [...tableNames, ...eventTableNames])
    for (const [key, value] of store.entries(table)) yield [table, key, value];
}
