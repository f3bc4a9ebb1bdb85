// The one Redis connection a mock process shares between its stores (redis-*.ts here, and the
// mock's OAuth store), set to fail fast: no offline queue, one retry per command and a command
// timeout, so a request that needs Redis while it is down fails at once (answered 503) instead of
// waiting or answering from stale memory; ioredis reconnects by itself. Commands issued in the same
// event-loop turn go out as one write (auto-pipelining): under load, one socket write per command
// cost a replica more CPU than anything else it did (bench/profile-sandbox.mjs --shared). The
// journal's record script, which carries a batch of its own (its group commit), is written at once
// instead: auto-pipelined, each call would also cost a pipeline object and one more event-loop turn
// (ioredis sends an auto-pipeline from `setImmediate`). The command timeout is generous because it
// runs from when a command is queued, so it also counts the time this process's own event loop
// takes to read the answer: on a saturated machine that alone passed 2 s while Redis was healthy.
// An outage is logged once when it starts and once when Redis is back, never with the URL (it may
// carry a password); a command that fails while connected is logged once, by the outermost `run`.
// Every key starts with the deployment's prefix; the keys under `<prefix>cached:` are ones replicas
// keep copies of, invalidated by Redis (redis-read-cache.ts, whose connection opens with this one).
import { Redis } from 'ioredis';
import { StoreUnavailableError } from '../malls/store-unavailable.js';
import { cachedPrefix, openReadCache, type ReadCache } from './redis-read-cache.js';

/** A connection to the shared Redis. */
export interface SharedRedis {
  readonly client: Redis;
  /** Prefix of every key (one per deployment). */
  readonly prefix: string;
  /** Copies of the keys under `<prefix>cached:`, kept while Redis reports their changes. */
  readonly cache: ReadCache;
  /** Whether Redis is connected (what `/__ready` reports). */
  ready(): boolean;
  /**
   * Runs commands; any failure becomes a {@link StoreUnavailableError} with the failure as cause,
   * logged once (a failure of a nested `run` is passed on as it is).
   */
  run<T>(commands: (client: Redis) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Options of {@link connectRedis}. */
export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
  /** Prefix of every key (default `mall-api-mock:`). */
  readonly prefix?: string;
  /** Where outages are reported (default: standard error). */
  readonly log?: (line: string) => void;
}

/** Connects and resolves once Redis answers; rejects when it does not within 10 s. */
export async function connectRedis(options: RedisConnectionOptions): Promise<SharedRedis> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    // Written at once, not auto-pipelined (see the header): redis-journal.ts's record script.
    autoPipeliningIgnoredCommands: ['mallJournalRecord'],
    maxRetriesPerRequest: 1,
    commandTimeout: 10_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  let down = false;
  let closing = false;
  const lost = (cause: string) => {
    if (down || closing) return;
    down = true;
    log(`the shared state store (Redis) is unavailable: ${cause}`);
  };
  // A refused or broken connection is an 'error'; a server that closed it cleanly only a 'close'.
  client.on('error', (error: Error) => lost(error.message));
  client.on('close', () => lost('the connection closed'));
  client.on('ready', () => {
    if (down) log('the shared state store (Redis) is available again');
    down = false;
  });
  const connected = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 10_000);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!connected) {
    client.disconnect();
    throw new Error('cannot reach Redis for the shared state: Redis did not answer in time');
  }
  const prefix = options.prefix ?? 'mall-api-mock:';
  const cache = await openReadCache(options.url, prefix, log);
  return {
    client,
    prefix,
    cache,
    ready: () => client.status === 'ready',
    async run(commands) {
      try {
        return await commands(client);
      } catch (error) {
        if (error instanceof StoreUnavailableError) throw error;
        // While connected, a failing command is not an outage the connection reported: log it.
        if (client.status === 'ready') log(`a shared state store (Redis) command failed: ${causeOf(error)}`);
        throw new StoreUnavailableError('the shared state store (Redis) could not answer', { cause: error });
      }
    },
    async close() {
      closing = true;
      await Promise.all([cache.close(), client.quit().catch(() => client.disconnect())]);
    },
  };
}

/** A failure's message, with its cause's when it wraps one (the rate-limit store's errors do). */
function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}

/** A key replicas keep copies of: `<prefix>cached:<kind>:<id>`. */
export const cachedKey = (shared: SharedRedis, kind: string, id: string): string =>
  `${cachedPrefix(shared.prefix)}${kind}:${id}`;

/** Runs a change of `key` (a key replicas keep copies of), forgetting this process's copy as it is sent. */
export const changeCached = <T>(shared: SharedRedis, key: string, write: (key: string) => Promise<T>) =>
  shared.run(() => {
    shared.cache.forget(key);
    return write(key);
  });

/** The key prefix of one mall's state: `<prefix>mall:<mallId>:`. */
export const mallKey = (shared: SharedRedis, mallId: string): string => `${shared.prefix}mall:${mallId}:`;

/** Deletes every key matching `pattern` (SCAN, never KEYS); gives how many went. */
export async function deleteMatching(client: Redis, pattern: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
    cursor = next;
    if (keys.length > 0) deleted += await client.del(...keys);
  } while (cursor !== '0');
  return deleted;
}

/** A mall id with the glob characters of a SCAN pattern escaped. */
export const globEscaped = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&');
