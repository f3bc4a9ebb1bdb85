// The newest version of each mall, announced beside the database by every replica (Redis, in
// redis/redis-mall-versions.ts), so a replica answers a read from the copy it holds without asking
// the database whenever that copy is at least the announced version. Every change to a mall in the
// database (a write, a swap, a drop) announces its new version before it commits, so a change a
// caller was told of is always announced; an announcement never lowers the one held, and one left
// by a change that then failed to commit only makes replicas ask the database again. The
// interface only; postgres-malls.ts uses it.

/** The announced newest version of each mall (numbers of the database's version sequence). */
export interface SharedMallVersions {
  /** The newest version announced for a mall; undefined when none was (ask the database). */
  get(mallId: string): Promise<number | undefined>;
  /** Announces a mall's version; a lower one than already announced changes nothing. */
  raise(mallId: string, version: number): Promise<void>;
}
