// The newest version of each mall, announced beside the database by every replica (Redis, in
// redis/redis-mall-versions.ts), so a replica answers a read from the copy it holds without asking
// the database whenever that copy is at least the announced version. Every change to a mall in the
// database (a write, a swap, a drop) announces its new version before it commits, so a change a
// caller was told of is always announced; an announcement never lowers the one held, and one left
// by a change that then failed to commit only makes replicas ask the database again. Every mall's
// announced version can also be read at once (`all`), so a call over every mall (a collection call)
// skips the database when the replica holds each mall at its announced version and no other; a
// drop takes its mall out of `all` once it has committed. The interface only; postgres-malls.ts
// and postgres-catch-up.ts use it.

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
