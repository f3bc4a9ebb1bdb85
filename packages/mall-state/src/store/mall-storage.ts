// The one contract of where the sandbox malls' records are kept: this process's memory, a SQLite
// database in a data directory (both local-malls.ts), or PostgreSQL shared by replicas
// (postgres-malls.ts). Every mall is a memory store the sandbox's synchronous services answer from;
// the storage decides when a call's writes commit, swaps a mall's next records in whole and drops
// malls in the mall's turn. Every operation answers a promise. The interfaces only, with what the
// PostgreSQL storage adds (announced versions, purges), whose declarations never reach `pg`'s types.
import type { StillUnused } from '../malls/mall-roster.js';
import type { SandboxStore, StoreTable } from './store.js';

/** What {@link MallStorage.read} answers when the call must run as a write instead. */
export const runAsWrite: unique symbol = Symbol('run as write');

/** A mall's caught-up store and the version of the storage it holds. */
export interface MallVersion {
  readonly store: SandboxStore;
  readonly version: number;
  readonly created: number;
}

/** A mall's next records, staged off to the side (see {@link MallStorage.stage}). */
export interface StagedMall {
  /** The new store, empty at first; the caller fills it in as many transactions as it likes. */
  readonly store: SandboxStore;
  /**
   * Makes the staged records the mall's, creating the mall if the storage has none; with
   * `expected`, only if the mall is still at that version (false: it changed, nothing was kept).
   * `swapped` runs just after, before any later call on the mall. Resolves once the old records
   * are deleted (in chunks).
   */
  swap(expected: MallVersion | undefined, swapped: () => void): Promise<boolean>;
  /** Forgets the staged records (a refused change); the mall keeps its old ones. */
  discard(): Promise<void>;
}

/** Who hears what a catch-up finds (see {@link MallStorage.catchUp}). */
export interface CatchUpHooks {
  /** A mall the sandbox may not hold yet: open it. */
  adopt(mallId: string): void;
  /** A mall held here that the storage no longer has. */
  forget(mallId: string): void;
  /** A mall's store once caught up (a new one when the mall was replaced elsewhere). */
  current(mallId: string, store: SandboxStore): void;
}

/** The malls of one storage, as one process sees them. */
export interface MallStorage {
  /** The memory store of a mall in this process (empty until the mall is read or written). */
  open(mallId: string): SandboxStore;
  /**
   * Runs `work` on the mall's caught-up store; {@link runAsWrite} when the storage has no such
   * mall, or when `work` wrote and the storage commits writes apart (its writes are undone: run it
   * again with {@link write}). The store may be a new one (the mall was replaced): the caller
   * answers from the one given.
   */
  read<R>(mallId: string, work: (store: SandboxStore) => R): Promise<R | typeof runAsWrite>;
  /**
   * The fast path behind {@link read} where the storage has one (memory, SQLite): the store of a
   * mall held in this process, whose reads commit at once, for a caller that answers from it
   * without a turn; undefined when the storage has no such mall (then use {@link read}).
   */
  readonly heldNow?: (mallId: string) => SandboxStore | undefined;
  /**
   * Runs `work` on the mall's store as one committed transaction; `fresh` is true when the mall
   * did not exist (it is created here, empty). If `work` throws, nothing is written.
   */
  write<R>(mallId: string, work: (store: SandboxStore, fresh: boolean) => R): Promise<R>;
  /** The mall's caught-up store and version; undefined when the storage has no such mall. */
  current(mallId: string): Promise<MallVersion | undefined>;
  /** Starts the next records of a mall off to the side (reset, fixture, restore). */
  stage(mallId: string): StagedMall;
  /** Catches up the malls `mallIds` name (undefined: every mall of the storage), telling `hooks`. */
  catchUp(mallIds: readonly string[] | undefined, hooks: CatchUpHooks): Promise<void>;
  /** The malls the storage holds, in id order. */
  mallIds(): Promise<string[]>;
  /**
   * The malls whose store holds a record of `table`, in id order: one look per mall (an index
   * probe on a database), never a read of the malls' records.
   */
  mallsHolding(table: StoreTable): Promise<string[]>;
  /**
   * Deletes a mall and its records in the mall's turn; with `stillUnused`, asked first, only when
   * it answers true and the mall was not written meanwhile. False when nothing was deleted.
   */
  drop(mallId: string, stillUnused?: StillUnused): Promise<boolean>;
  /** Sets who hears of a mall held here that another replica dropped (one listener). */
  observeGone(gone: (mallId: string) => void): void;
  /** Sets who hears of every change to a table of a mall's store (one listener). */
  observe(changed: (mallId: string, table: StoreTable) => void): void;
  /** Whether the storage answers now. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The newest version of each mall, announced beside the database by every replica (Redis:
 * redis/redis-mall-versions.ts), so a replica answers a read from its copy without asking the
 * database when that copy is at least the announced version. Every change announces its version
 * before it commits, so a change a caller was told of is always announced; one left by a change
 * that failed to commit only makes replicas ask the database again.
 */
export interface SharedMallVersions {
  /** The newest version announced for a mall; undefined when none was (ask the database). */
  get(mallId: string): Promise<number | undefined>;
  /** Announces a mall's version; a lower one than already announced changes nothing. */
  raise(mallId: string, version: number): Promise<void>;
  /**
   * The newest version announced for every mall not dropped since (one read for all): a mall
   * created is in it before its creation commits; a dropped one leaves it through {@link forget}.
   */
  all(): Promise<ReadonlyMap<string, number>>;
  /**
   * Takes a mall out of {@link all} after its drop (at `version`) has committed, unless a newer
   * version was announced since (the mall was made again).
   */
  forget(mallId: string, version: number): Promise<void>;
}

/** What one purge of the PostgreSQL store removed (postgres-upkeep.ts purges). */
export interface Purged {
  /** Tombstones purged, over every mall. */
  readonly tombstones: number;
  /** Loose row sets deleted (left by stopped replicas). */
  readonly rowsets: number;
}
