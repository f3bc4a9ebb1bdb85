// When `mall-api-mock --workers N` may run more than one worker: only when the malls live in
// PostgreSQL (`--store postgres://…`) and the state shared between requests in Redis (`--redis`);
// memory and SQLite belong to one process, so N workers on them would be N different sandboxes
// behind one port. Also the one test of what names a PostgreSQL store.

/** The parsed options the rule reads (`--store` and `--redis`; absent when not given). */
export interface StoreChoice {
  readonly store?: unknown;
  readonly redis?: unknown;
}

/** Whether a `--store` value names a PostgreSQL database (`postgres://` or `postgresql://`, any case). */
export function isPostgresUrl(store: string): boolean {
  return /^postgres(ql)?:\/\//i.test(store.trim());
}

/** True when the malls are on PostgreSQL and the shared state on Redis. */
export function sharedStoresGiven(options: StoreChoice): boolean {
  const { store, redis } = options;
  return (
    typeof store === 'string' && isPostgresUrl(store) && typeof redis === 'string' && redis.trim() !== ''
  );
}

/** Why `workers` workers cannot run with these options, or undefined when they can. */
export function workersRefusal(workers: number, options: StoreChoice): string | undefined {
  if (workers <= 1 || sharedStoresGiven(options)) return undefined;
  return (
    `--workers ${workers} needs shared stores: each worker would keep its own malls, tokens and ` +
    'rate-limit buckets in its own memory or SQLite file. Pass --store postgres://… and ' +
    '--redis redis://… (or run one worker)'
  );
}
