// The one interface every token store implements (memory, file, Redis), its lock options, and the
// small rules all stores share: which mall ids are acceptable, the default lock timings, and the
// clock the stores read lease times and wait on (the real one unless a test passes a simulated
// one). The lock is what makes a refresh single-flight across processes; see token-manager for
// how it is used. Not an implementation of any store.
import { setTimeout as delay } from 'node:timers/promises';
import { TokenStoreError } from './errors.js';
import type { TokenSet } from './token-set.js';

/** How a store's per-mall lock is taken. */
export interface LockOptions {
  /**
   * Lease of the lock: after this long a holder that died (or hung) is considered gone and the lock
   * may be taken over. Keep it well above the longest token refresh. Default 30 000 ms.
   */
  readonly ttlMs?: number;
  /** How long to wait for the lock before failing with `lock_timeout`. Default 10 000 ms. */
  readonly waitMs?: number;
  /** Pause between attempts while waiting. Default 20 ms (with jitter). */
  readonly retryDelayMs?: number;
}

/** Persistent home of each mall's {@link TokenSet}, with a per-mall mutual-exclusion lock. */
export interface TokenStore {
  /** The stored token set, or `undefined` when none is stored. */
  get(mallId: string): Promise<TokenSet | undefined>;
  /** Stores (replaces) the token set. Resolves only once it is durable for this kind of store. */
  set(mallId: string, tokens: TokenSet): Promise<void>;
  /** Removes the token set; removing a missing one is not an error. */
  delete(mallId: string): Promise<void>;
  /**
   * Runs `fn` while holding the mall's lock, shared by everyone using the same backing store.
   *
   * @throws {TokenStoreError} `lock_timeout` when the lock cannot be taken within `waitMs`;
   *   `lock_lost` when `fn` finished after its lease had been taken over by someone else.
   */
  withLock<T>(mallId: string, fn: () => Promise<T>, options?: LockOptions): Promise<T>;
}

/**
 * Time as a token store sees it: lock leases are stamped with `now()`, and waits for a lock are
 * `sleep`s. The file store's leases are compared across processes, so outside tests this must be
 * the wall clock ({@link systemStoreClock}). The Redis store's leases expire on the Redis server's
 * own clock; only its waiting uses this one.
 */
export interface StoreClock {
  /** Current time in ms since the Unix epoch. */
  now(): number;
  /** Resolves after `ms` ms, or early (it may reject) once `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `Date.now` and Node's timers. */
export const systemStoreClock: StoreClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, signal ? { signal } : {}),
};

/** Lock timings with every default filled in. */
export interface ResolvedLockOptions {
  readonly ttlMs: number;
  readonly waitMs: number;
  readonly retryDelayMs: number;
}

/**
 * Runs `fn` under a lease already taken, then releases it. A failure of `fn` is the one reported
 * (a release failing after it is secondary: the lease expires on its own); after success a failed
 * release is reported (`lock_lost`, for example).
 */
export async function runUnderLease<T>(fn: () => Promise<T>, release: () => Promise<void>): Promise<T> {
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }
  await release();
  return result;
}

/** Fills in the default lock timings. */
export function resolveLockOptions(options: LockOptions = {}): ResolvedLockOptions {
  return {
    ttlMs: options.ttlMs ?? 30_000,
    waitMs: options.waitMs ?? 10_000,
    retryDelayMs: options.retryDelayMs ?? 20,
  };
}

const MALL_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Rejects mall ids that could escape a file name or key namespace (letters, digits, `_`, `-`;
 * 1–64 characters, not starting with `_` or `-`).
 *
 * @throws {TokenStoreError} code `invalid_mall_id`.
 */
export function assertMallId(mallId: string): void {
  if (!MALL_ID.test(mallId)) {
    throw new TokenStoreError('invalid_mall_id', 'mall id must be 1-64 letters, digits, "_" or "-"', {
      context: { mallId: mallId.slice(0, 80) },
    });
  }
}

/** Waits `ms` milliseconds plus up to 50 % jitter, so waiting processes do not retry in lockstep. */
export function pause(clock: StoreClock, ms: number): Promise<void> {
  return clock.sleep(ms + Math.random() * ms * 0.5);
}
