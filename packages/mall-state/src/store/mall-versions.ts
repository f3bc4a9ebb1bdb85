// The newest version of each mall, announced beside the database by every replica (Redis:
// redis/redis-mall-versions.ts), so a replica answers a read from its copy without asking the
// database when that copy is at least the announced version. Every change announces its version
// before it commits, so a change a caller was told of is always announced; one left by a change
// that failed to commit only makes replicas ask the database again. The interface only.

/** The announced newest version of each mall (numbers of the database's version sequence). */
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
