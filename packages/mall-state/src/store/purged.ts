// What one purge of the PostgreSQL store removed (postgres-upkeep.ts purges). Its own module so
// the published declarations of the store's API name it without reaching the `pg` driver's types,
// which only those who install `pg` have.

/** What one purge removed. */
export interface Purged {
  /** Tombstones purged, over every mall. */
  readonly tombstones: number;
  /** Loose row sets deleted (left by stopped replicas). */
  readonly rowsets: number;
}
