// The record store of one sandbox mall: named tables of JSON records, number sequences, and
// transactions in which a thrown error undoes every write (so a refused call changes nothing).
// Writes are synchronous, so concurrent calls never interleave within a transaction. A journal
// writes a store through to disk (sqlite-store.ts) or collects a call's writes for a database
// (postgres-held.ts); where the stores of every mall live is a MallStorage (mall-storage.ts).

/** The tables of a mall, in the order a snapshot lists them. */
export const tableNames = [
  'category',
  'decoration',
  'seo',
  'main',
  'product',
  'categoryPlacement',
  'mainPlacement',
  'sequence',
] as const;

/** One of {@link tableNames}. */
export type TableName = (typeof tableNames)[number];

/**
 * The tables of a mall's events, beside its records and not in its snapshots: `event`, the events
 * its committed writes recorded and not yet delivered (the outbox, written in the write's own
 * transaction), `delivery`, the log of its delivery attempts, and `receiver`, the receiver
 * registered for the mall (shared by every replica of a shared store).
 */
export const eventTableNames = ['event', 'delivery', 'receiver'] as const;

/** One of {@link eventTableNames}. */
export type EventTableName = (typeof eventTableNames)[number];

/** Any table of a mall's store. */
export type StoreTable = TableName | EventTableName;

/** A stored record: any JSON object. */
export type StoredRecord = Record<string, unknown>;

/** Where the sandbox keeps its records. */
export interface SandboxStore {
  /** The record under `key`, or undefined. Callers must not mutate it: `put` a changed copy. */
  get<T extends StoredRecord = StoredRecord>(table: StoreTable, key: string): T | undefined;
  /** Every record of a table, in insertion order. */
  all<T extends StoredRecord = StoredRecord>(table: StoreTable): T[];
  /** Every key and record of a table, in insertion order. */
  entries(table: StoreTable): [string, StoredRecord][];
  /** Number of records in a table. */
  size(table: StoreTable): number;
  /** A number that changes whenever the table changes (writes and undone writes), for caches. */
  revision(table: StoreTable): number;
  put(table: StoreTable, key: string, value: StoredRecord): void;
  delete(table: StoreTable, key: string): void;
  /** The next number of a sequence, starting after `start` (kept in the `sequence` table). */
  nextNumber(sequence: string, start: number): number;
  /** Runs `work`; if it throws, every write it made is undone and the error rethrown. */
  transaction<R>(work: () => R): R;
  close(): void;
}

type UndoEntry = { table: StoreTable; key: string; previous: StoredRecord | undefined };

/** Hooks a persistent store adds to the memory store (write-through, commit, rollback). */
export interface StoreJournal {
  begin(): void;
  put(table: StoreTable, key: string, value: StoredRecord): void;
  delete(table: StoreTable, key: string): void;
  commit(): void;
  rollback(): void;
  close(): void;
}

/**
 * An in-memory store, optionally journaled to disk, preloaded with `initial` records; `onChange`
 * hears of every change to a table (a write or an undone one), for indexes kept across stores.
 */
export function createMemoryStore(
  journal?: StoreJournal,
  initial: Iterable<[StoreTable, string, StoredRecord]> = [],
  onChange?: (table: StoreTable) => void,
): SandboxStore {
  const tables = new Map<StoreTable, Map<string, StoredRecord>>();
  const tableOf = (name: StoreTable) => {
    let table = tables.get(name);
    if (!table) {
      table = new Map();
      tables.set(name, table);
    }
    return table;
  };
  for (const [table, key, value] of initial) tableOf(table).set(key, value);
  let undo: UndoEntry[] | undefined;
  const revisions = new Map<StoreTable, number>();
  const touch = (table: StoreTable) => {
    revisions.set(table, (revisions.get(table) ?? 0) + 1);
    onChange?.(table);
  };

  const write = (table: StoreTable, key: string, value: StoredRecord | undefined) => {
    const map = tableOf(table);
    if (!undo) throw new Error('sandbox store writes must run inside a transaction');
    undo.push({ table, key, previous: map.get(key) });
    touch(table);
    if (value === undefined) {
      map.delete(key);
      journal?.delete(table, key);
    } else {
      map.set(key, value);
      journal?.put(table, key, value);
    }
  };

  const store: SandboxStore = {
    get: <T extends StoredRecord>(table: StoreTable, key: string) => tableOf(table).get(key) as T | undefined,
    all: <T extends StoredRecord>(table: StoreTable) => [...tableOf(table).values()] as T[],
    entries: (table) => [...tableOf(table).entries()],
    size: (table) => tableOf(table).size,
    revision: (table) => revisions.get(table) ?? 0,
    put: (table, key, value) => write(table, key, value),
    delete: (table, key) => {
      if (tableOf(table).has(key)) write(table, key, undefined);
    },
    nextNumber(sequence, start) {
      const current = tableOf('sequence').get(sequence)?.value;
      const next = (typeof current === 'number' ? current : start) + 1;
      write('sequence', sequence, { value: next });
      return next;
    },
    transaction<R>(work: () => R): R {
      if (undo) return work(); // nested: part of the outer transaction
      undo = [];
      journal?.begin();
      try {
        const result = work();
        journal?.commit();
        return result;
      } catch (error) {
        for (const entry of undo.reverse()) {
          const map = tableOf(entry.table);
          touch(entry.table);
          if (entry.previous === undefined) map.delete(entry.key);
          else map.set(entry.key, entry.previous);
        }
        journal?.rollback();
        throw error;
      } finally {
        undo = undefined;
      }
    },
    close: () => journal?.close(),
  };
  return store;
}

/** Removes every record of the store, events too (inside the caller's transaction). */
export function clearStore(store: SandboxStore): void {
  for (const table of [...tableNames, ...eventTableNames])
    for (const [key] of store.entries(table)) store.delete(table, key);
}
