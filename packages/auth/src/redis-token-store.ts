// A token store in Redis, shared by any number of processes and hosts: each mall's token set is a
// JSON string under `<prefix>tokens:<mallId>`, and its lock is `<prefix>lock:<mallId>`, taken with
// `SET key owner NX PX ttl` and released by a Lua compare-and-delete, so only the owner can release
// and a dead owner's lock expires on its own. The only module of the package that depends on
// ioredis (published as the `./redis` subpath). Not a connection manager: the caller creates,
// configures and closes the ioredis client. Durability is whatever the Redis server is configured
// for (AOF `appendfsync always` for the strongest guarantee).
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sanitizedCause, TokenStoreError } from './errors.js';
import type { TokenSet } from './token-set.js';
import { decodeTokenSet, encodeTokenSet } from './token-set-codec.js';
import {
  assertMallId,
  type LockOptions,
  pause,
  resolveLockOptions,
  runUnderLease,
  type StoreClock,
  systemStoreClock,
  type TokenStore,
} from './token-store.js';

/** Options of {@link createRedisTokenStore}. */
export interface RedisTokenStoreOptions {
  /** A connected (or lazily connecting) ioredis client; the store never closes it. */
  readonly redis: Redis;
  /** Prefix of every key. Default `mall-api:auth:`. */
  readonly keyPrefix?: string;
  /**
   * Clock that waiting for the lock (`waitMs`, the pause between attempts) is measured on.
   * Default {@link systemStoreClock}. Leases expire on the Redis server's clock, not this one.
   */
  readonly clock?: StoreClock;
}

/** Deletes the lock only if it still holds our owner id. Returns 1 when deleted, 0 otherwise. */
const RELEASE_SCRIPT = `if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("DEL", KEYS[1])
else
  return 0
end`;

/**
 * Creates a {@link TokenStore} on Redis. Every process using the same server and `keyPrefix`
 * shares tokens and locks.
 */
export function createRedisTokenStore(options: RedisTokenStoreOptions): TokenStore {
  const { redis } = options;
  const clock = options.clock ?? systemStoreClock;
  const prefix = options.keyPrefix ?? 'mall-api:auth:';
  const tokenKey = (mallId: string): string => `${prefix}tokens:${mallId}`;
  const lockKey = (mallId: string): string => `${prefix}lock:${mallId}`;

  function storeFailed(operation: string, mallId: string, error: unknown): TokenStoreError {
    // ioredis attaches the command and its arguments (our tokens) to its errors: keep only the message.
    return new TokenStoreError('store_failed', `Redis could not ${operation} for mall ${mallId}`, {
      context: { mallId, operation },
      cause: sanitizedCause(error),
    });
  }

  async function acquire(mallId: string, lockOptions: LockOptions | undefined): Promise<string> {
    const timing = resolveLockOptions(lockOptions);
    const owner = randomBytes(16).toString('hex');
    const deadline = clock.now() + timing.waitMs;
    for (;;) {
      let answer: string | null;
      try {
        answer = await redis.set(lockKey(mallId), owner, 'PX', timing.ttlMs, 'NX');
      } catch (error) {
        throw storeFailed('take the lock', mallId, error);
      }
      if (answer === 'OK') return owner;
      if (clock.now() >= deadline) {
        throw new TokenStoreError(
          'lock_timeout',
          `lock for mall ${mallId} not acquired within ${timing.waitMs} ms`,
          {
            context: { mallId, waitMs: timing.waitMs },
          },
        );
      }
      await pause(clock, timing.retryDelayMs);
    }
  }

  async function release(mallId: string, owner: string): Promise<void> {
    let deleted: unknown;
    try {
      deleted = await redis.eval(RELEASE_SCRIPT, 1, lockKey(mallId), owner);
    } catch (error) {
      throw storeFailed('release the lock', mallId, error);
    }
    if (deleted !== 1) {
      throw new TokenStoreError(
        'lock_lost',
        `lock for mall ${mallId} expired and was taken over before release`,
        {
          context: { mallId },
        },
      );
    }
  }

  return {
    async get(mallId) {
      assertMallId(mallId);
      let text: string | null;
      try {
        text = await redis.get(tokenKey(mallId));
      } catch (error) {
        throw storeFailed('read the tokens', mallId, error);
      }
      return text === null ? undefined : decodeTokenSet(mallId, text);
    },

    async set(mallId: string, tokens: TokenSet) {
      assertMallId(mallId);
      try {
        await redis.set(tokenKey(mallId), encodeTokenSet(tokens));
      } catch (error) {
        throw storeFailed('write the tokens', mallId, error);
      }
    },

    async delete(mallId) {
      assertMallId(mallId);
      try {
        await redis.del(tokenKey(mallId));
      } catch (error) {
        throw storeFailed('delete the tokens', mallId, error);
      }
    },

    async withLock<T>(mallId: string, fn: () => Promise<T>, lockOptions?: LockOptions): Promise<T> {
      assertMallId(mallId);
      const owner = await acquire(mallId, lockOptions);
      return runUnderLease(fn, () => release(mallId, owner));
    },
  };
}
