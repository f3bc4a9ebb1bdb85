// The storage of malls held in this process: each mall's memory store is the mall, optionally
// written through to SQLite (sqlite-store.ts, as LocalRows), so a read's writes commit at once and
// no call runs twice. Every change counts up the mall's version, so a swap or a drop asked to check
// that the mall is still unused refuses a mall changed meanwhile. Not here: the SQL.
import { type MallStorage, runAsWrite } from './mall-storage.js';
import {
  createMemoryStore,
  type SandboxStore,
  type StoredRecord,
  type StoreJournal,
  type StoreTable,
} from './store.js';

/** A mall's next row set, written while staged (see {@link LocalRows.stage}). */
export interface StagedRows {
  readonly journal: StoreJournal;
  /** Points the mall at the staged rows; settles once the old rows are deleted. */
  swap(): Promise<void>;
  discard(): Promise<void>;
}

/** Rows on disk the memory stores write through to (SQLite). */
export interface LocalRows {
  /** The malls with stored rows. */
  malls(): string[];
  /** The stored records of a mall. */
  records(mallId: string): Iterable<[StoreTable, string, StoredRecord]>;
  /** The journal writing a mall's store through to its rows. */
  journal(mallId: string): StoreJournal;
  /** A new row set for the mall's next records. */
  stage(mallId: string): StagedRows;
  drop(mallId: string): void;
  close(): void;
}

/** One mall held here. */
interface LocalMall {
  readonly store: SandboxStore;
  /** Counts every change to the store. */
  version: number;
  /** Which store of the mall this is (each swap makes a new one). */
  readonly created: number;
  /** Whether a write made the mall (a store only opened holds nothing yet). */
  started: boolean;
}

/** Malls in this process's memory, written through to `rows` when given; the rows' malls are loaded now. */
export function localMalls(rows?: LocalRows): MallStorage {
  const held = new Map<string, LocalMall>();
  let generation = 0;
  let changed: ((mallId: string, table: StoreTable) => void) | undefined;
  /** A new mall over a store of `journal` preloaded with `records`. */
  const mallOf = (
    mallId: string,
    journal: StoreJournal | undefined,
    started: boolean,
    records: Iterable<[StoreTable, string, StoredRecord]> = [],
  ): LocalMall => {
    const mall: LocalMall = {
      version: 0,
      created: ++generation,
      started,
      store: createMemoryStore(journal, records, (table) => {
        mall.version++;
        changed?.(mallId, table);
      }),
    };
    return mall;
  };
  const opened = (mallId: string): LocalMall => {
    let mall = held.get(mallId);
    if (!mall) {
      mall = mallOf(mallId, rows?.journal(mallId), false);
      held.set(mallId, mall);
    }
    return mall;
  };
  const heldNow = (mallId: string) => {
    const mall = held.get(mallId);
    return mall?.started ? mall.store : undefined;
  };
  /** The malls made here whose store `keep` accepts, in id order. */
  const startedIds = (keep = (_store: SandboxStore) => true) =>
    [...held].flatMap(([mallId, mall]) => (mall.started && keep(mall.store) ? [mallId] : [])).sort();
  for (const mallId of rows?.malls() ?? [])
    held.set(mallId, mallOf(mallId, rows?.journal(mallId), true, rows?.records(mallId)));

  return {
    open: (mallId) => opened(mallId).store,
    async read(mallId, work) {
      const store = heldNow(mallId);
      return store ? work(store) : runAsWrite;
    },
    heldNow,
    async write(mallId, work) {
      const mall = opened(mallId);
      const fresh = !mall.started;
      const result = mall.store.transaction(() => work(mall.store, fresh));
      mall.started = true;
      return result;
    },
    async current(mallId) {
      const mall = held.get(mallId);
      return mall?.started ? { store: mall.store, version: mall.version, created: mall.created } : undefined;
    },
    stage(mallId) {
      const staged = rows?.stage(mallId);
      const next = mallOf(mallId, staged?.journal, true);
      return {
        store: next.store,
        async swap(expected, swapped) {
          const mall = held.get(mallId);
          if (expected && (mall?.store !== expected.store || mall.version !== expected.version)) {
            await staged?.discard();
            return false;
          }
          const deleted = staged?.swap();
          held.set(mallId, next);
          swapped();
          await deleted;
          return true;
        },
        discard: async () => staged?.discard(),
      };
    },
    async catchUp(mallIds, hooks) {
      for (const mallId of mallIds ?? held.keys()) if (held.get(mallId)?.started) hooks.adopt(mallId);
    },
    mallIds: async () => startedIds(),
    mallsHolding: async (table) => startedIds((store) => store.size(table) > 0),
    async drop(mallId, stillUnused) {
      const mall = held.get(mallId);
      if (!mall?.started) return false;
      const version = mall.version;
      if (stillUnused && !(await stillUnused())) return false;
      if (held.get(mallId) !== mall || mall.version !== version) return false;
      held.delete(mallId);
      rows?.drop(mallId);
      return true;
    },
    observeGone: () => {},
    observe(listener) {
      changed = listener;
    },
    ready: async () => true,
    async close() {
      held.clear();
      rows?.close();
    },
  };
}

/** Stores kept in this process's memory only: malls end with the process. */
export const memoryStorage = (): MallStorage => localMalls();
