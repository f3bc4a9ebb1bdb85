// What a replica keeps of the keys it reads on every request and that change rarely — access
// tokens and their malls' OAuth epochs, clock offsets, fault rules, announced mall versions — so a
// request reads them from memory instead of asking Redis. Redis itself says when a copy is stale
// (server-assisted client-side caching): a connection of its own turns on `CLIENT TRACKING … BCAST`
// for the keys under `<prefix>cached:`, redirected to itself, and listens on
// `__redis__:invalidate`, where Redis names every such key as it changes or expires, whoever
// changed it (this replica too), and a flush as null. Redis sends an invalidation before it answers
// the command that made the change, so it reaches every replica before a caller told of the change
// can ask another. A copy is the promise of its read: a key named while its read is under way is
// dropped with it, so a read that raced a change is never kept. While that connection is down (or
// before it is up) nothing is kept and every read goes to Redis: what it kept is forgotten when it
// goes down, since invalidations may be lost. Keys outside `<prefix>cached:` are never kept; write
// hot keys (journals, buckets, the roster) outside it, or every change is sent to every replica.
import { Redis } from 'ioredis';

/** Copies of rarely changing keys, kept while Redis reports their changes. */
export interface ReadCache {
  /**
   * The value of `key` as last loaded while no change of it was reported, else `load()`'s (kept
   * when invalidations are being received). `key` is the Redis key `load` reads.
   */
  read<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets the copy of a key, at once (call it as this process changes the key). */
  forget(key: string): void;
  /** Whether Redis's invalidations are being received (else every read loads). */
  tracking(): boolean;
  close(): Promise<void>;
}

/** The prefix of every key a replica may keep a copy of: `<prefix>cached:`. */
export const cachedPrefix = (prefix: string): string => `${prefix}cached:`;

/** Copies kept at most; past it the oldest copy goes first. */
const maxCopies = 10_000;

/**
 * Opens the invalidation connection to `url` and tracks the keys under `cachedPrefix(prefix)`;
 * resolves once tracking is on, or after 5 s without it (reads then load until it is).
 * `log` says when tracking could not be turned on.
 */
export async function openReadCache(
  url: string,
  prefix: string,
  log: (line: string) => void,
): Promise<ReadCache> {
  const copies = new Map<string, Promise<unknown>>();
  const tracked = cachedPrefix(prefix);
  let tracking = false;
  let closing = false;
  const listener = new Redis(url, {
    autoResubscribe: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  const stop = () => {
    tracking = false;
    copies.clear();
  };
  const start = async () => {
    const id = String(await listener.client('ID'));
    await listener.call('CLIENT', 'TRACKING', 'ON', 'REDIRECT', id, 'BCAST', 'PREFIX', tracked);
    await listener.subscribe('__redis__:invalidate');
    copies.clear();
    tracking = true;
  };
  let started: () => void = () => {};
  const first = new Promise<void>((resolve) => {
    started = resolve;
  });
  listener.on('ready', () => {
    start().then(started, (error: Error) => {
      if (!closing) log(`the shared state store (Redis) tracks no reads: ${error.message}`);
      started();
    });
  });
  listener.on('close', stop);
  // Outages are logged by the main connection; an error here only means reads are not kept.
  listener.on('error', () => {});
  listener.on('messageBuffer', (_channel: Buffer, keys: unknown) => {
    if (!Array.isArray(keys)) return copies.clear();
    for (const key of keys) copies.delete(String(key));
  });
  const timer = setTimeout(started, 5_000);
  await first;
  clearTimeout(timer);
  return {
    read<T>(key: string, load: () => Promise<T>): Promise<T> {
      const copy = copies.get(key);
      if (copy) return copy as Promise<T>;
      const loaded = load();
      // Redis reports changes of the tracked keys only: any other is loaded every time.
      if (!(tracking && key.startsWith(tracked))) return loaded;
      copies.set(key, loaded);
      if (copies.size > maxCopies) copies.delete(copies.keys().next().value as string);
      loaded.catch(() => {
        if (copies.get(key) === loaded) copies.delete(key);
      });
      return loaded;
    },
    forget: (key) => void copies.delete(key),
    tracking: () => tracking,
    async close() {
      closing = true;
      stop();
      await listener.quit().catch(() => listener.disconnect());
    },
  };
}
