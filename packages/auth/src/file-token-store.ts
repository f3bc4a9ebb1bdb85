// A token store on the local file system, shareable by processes on one host: one JSON file per
// mall (`<dir>/<mallId>.json`, mode 0600, directory created 0700), written atomically — a complete
// temporary file is fsynced and then renamed over the old one, so a reader or a crash never sees a
// partial record and the previous grant stays intact until the new one is durable. The per-mall
// lock is an exclusive lock file (`<mallId>.lock`, created with link(2), which fails if it exists)
// holding an owner id and a lease expiry. Creating it needs nothing else, but every removal — a
// holder releasing it, a waiter breaking an expired one — happens under a short-lived breaker file
// (`.<mallId>.lock.break`, created exclusively) after re-reading the lock, so a lock file can never
// be removed except as the one that was checked. Every process sharing a directory must use this
// protocol. Not for network file systems without atomic rename/link, nor for several hosts (use
// the Redis store).
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { sanitizedCause, TokenStoreError } from './errors.js';
import type { TokenSet } from './token-set.js';
import { decodeTokenSet, encodeTokenSet } from './token-set-codec.js';
import {
  assertMallId,
  type LockOptions,
  pause,
  type ResolvedLockOptions,
  resolveLockOptions,
  runUnderLease,
  type StoreClock,
  systemStoreClock,
  type TokenStore,
} from './token-store.js';

/** Options of {@link createFileTokenStore}. */
export interface FileTokenStoreOptions {
  /** Directory holding one `<mallId>.json` per mall; created with mode 0700 if missing. */
  readonly directory: string;
  /**
   * Clock of lock leases and waits. Leases are compared across processes, so anything but the
   * default {@link systemStoreClock} (the wall clock) is for tests.
   */
  readonly clock?: StoreClock;
}

interface LockRecord {
  readonly owner: string;
  readonly pid: number;
  readonly expiresAt: number;
}

interface LockFileState {
  /** `undefined` when the file exists but does not hold a lock record. */
  readonly record: LockRecord | undefined;
  readonly modifiedAt: number;
}

/**
 * Age after which a breaker file is taken for one left by a process that died mid-break, and is
 * cleared. A live breaker is held for a handful of local file calls (milliseconds), so 2 s is
 * ~1000x that — only a process stalled that long mid-break could be mistaken for a dead one, and
 * then two removals could overlap. It is also well under the default 10 s wait, so waiters outlast
 * a crashed breaker. The age is the file's mtime against the wall clock, not the store's clock:
 * it measures real file work, which a simulated clock (jumping while real I/O is pending) does not.
 */
const BREAKER_ABANDONED_AFTER_MS = 2_000;

function errorCode(error: unknown): string | undefined {
  const code: unknown = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function uniqueSuffix(): string {
  return randomBytes(8).toString('hex');
}

function parseLockRecord(text: string): LockRecord | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { owner, pid, expiresAt } = parsed as Record<string, unknown>;
    if (typeof owner !== 'string' || typeof pid !== 'number' || typeof expiresAt !== 'number')
      return undefined;
    return { owner, pid, expiresAt };
  } catch {
    return undefined; // an unreadable lock file is judged by its age instead
  }
}

/** The result of a file operation, or `undefined` when the file does not exist (ENOENT). */
async function unlessMissing<T>(operation: Promise<T>): Promise<T | undefined> {
  try {
    return await operation;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads a lock file; `undefined` when it does not exist. */
async function readLockFile(path: string): Promise<LockFileState | undefined> {
  const read = await unlessMissing(Promise.all([readFile(path, 'utf8'), stat(path)]));
  return read && { record: parseLockRecord(read[0]), modifiedAt: read[1].mtimeMs };
}

/**
 * Writes `content` to a new file with mode 0600 (failing with EEXIST if it exists), fsyncs it
 * unless it need not survive a power loss, and closes it.
 */
async function writeNewFile(path: string, content: string, { durable = true } = {}): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsyncs a directory so a rename or link inside it survives a power loss. */
async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes a file, reporting (not throwing) whether that failed — for cleanup after another error. */
async function removeQuietly(path: string): Promise<boolean> {
  try {
    await rm(path, { force: true });
    return true;
  } catch {
    return false; // the caller records the failure in the error it is about to throw
  }
}

/**
 * Creates a {@link TokenStore} keeping each mall's tokens in `<directory>/<mallId>.json`. Processes
 * on the same host sharing the directory share tokens and locks.
 */
export function createFileTokenStore(options: FileTokenStoreOptions): TokenStore {
  const directory = options.directory;
  const clock = options.clock ?? systemStoreClock;
  let directoryReady: Promise<void> | undefined;

  const tokenPath = (mallId: string): string => join(directory, `${mallId}.json`);
  const lockPath = (mallId: string): string => join(directory, `${mallId}.lock`);
  const breakerPath = (mallId: string): string => join(directory, `.${mallId}.lock.break`);

  function storeFailed(operation: string, mallId: string, error: unknown, extra = {}): TokenStoreError {
    return new TokenStoreError('store_failed', `could not ${operation} the token file of mall ${mallId}`, {
      context: { mallId, operation, directory, ...extra },
      cause: sanitizedCause(error),
    });
  }

  async function ensureDirectory(mallId: string): Promise<void> {
    directoryReady ??= mkdir(directory, { recursive: true, mode: 0o700 }).then(() => undefined);
    try {
      await directoryReady;
    } catch (error) {
      directoryReady = undefined;
      throw storeFailed('create the directory for', mallId, error);
    }
  }

  /** Atomically creates the lock file holding `record`; `false` when it already exists. */
  async function tryCreateLock(mallId: string, record: LockRecord): Promise<boolean> {
    const staging = join(directory, `.${mallId}.lock.${uniqueSuffix()}.tmp`);
    try {
      await writeNewFile(staging, JSON.stringify(record));
      await link(staging, lockPath(mallId));
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      throw storeFailed('create the lock file for', mallId, error);
    } finally {
      await rm(staging, { force: true });
    }
  }

  /**
   * Takes the mall's breaker — the short mutual exclusion every removal of the lock file happens
   * under; its token, or `undefined` when someone holds it (an abandoned one is cleared for the
   * next attempt).
   */
  async function tryTakeBreaker(mallId: string): Promise<string | undefined> {
    const token = uniqueSuffix();
    try {
      await writeNewFile(breakerPath(mallId), token, { durable: false });
      return token;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    await clearAbandonedBreaker(mallId);
    return undefined;
  }

  /** Takes the breaker, waiting (in real time, see {@link BREAKER_ABANDONED_AFTER_MS}) while it is held. */
  async function takeBreaker(mallId: string): Promise<string> {
    for (;;) {
      const token = await tryTakeBreaker(mallId);
      if (token !== undefined) return token;
      await delay(1 + Math.random() * 2);
    }
  }

  /** Removes the breaker if it is still ours (it is not if we overran the bound and it was cleared). */
  async function dropBreaker(mallId: string, token: string): Promise<void> {
    const content = await unlessMissing(readFile(breakerPath(mallId), 'utf8'));
    if (content === token) await rm(breakerPath(mallId), { force: true });
  }

  /**
   * Deletes a breaker left by a process that died mid-break. It is moved aside first, so only one
   * waiter deletes it, and checked to still be abandoned; a live breaker moved by mistake (one
   * created between our look and our move) is put back. Runs only after a crash mid-break; the one
   * interleaving it cannot repair — yet another breaker created while the live one was aside —
   * needs that crash plus several waiters racing within a few file calls.
   */
  async function clearAbandonedBreaker(mallId: string): Promise<void> {
    const abandoned = (info: { mtimeMs: number }) => info.mtimeMs + BREAKER_ABANDONED_AFTER_MS <= Date.now();
    const seen = await unlessMissing(stat(breakerPath(mallId)));
    if (seen === undefined || !abandoned(seen)) return;
    const aside = join(directory, `.${mallId}.lock.break.${uniqueSuffix()}.abandoned`);
    const moved = await unlessMissing(rename(breakerPath(mallId), aside).then(() => aside));
    if (moved === undefined) return;
    try {
      if (!abandoned(await stat(moved))) await link(moved, breakerPath(mallId));
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    } finally {
      await rm(moved, { force: true });
    }
  }

  /** Whether a lock file's lease is over (an unreadable one is judged by its age). */
  function isExpired(state: LockFileState, ttlMs: number): boolean {
    const now = clock.now();
    return state.record === undefined ? state.modifiedAt + ttlMs <= now : state.record.expiresAt <= now;
  }

  /**
   * Removes the lock file if its lease has expired (the holder died or overran its lease). The
   * check is repeated under the breaker, where the file cannot change: it can only be created
   * while absent, and removed only under the breaker. A busy breaker means someone else is
   * already removing a lock, so this caller just retries later.
   */
  async function breakIfStale(mallId: string, ttlMs: number): Promise<void> {
    const seen = await readLockFile(lockPath(mallId));
    if (seen === undefined || !isExpired(seen, ttlMs)) return;
    const token = await tryTakeBreaker(mallId);
    if (token === undefined) return;
    try {
      const current = await readLockFile(lockPath(mallId));
      if (current !== undefined && isExpired(current, ttlMs)) await rm(lockPath(mallId), { force: true });
    } finally {
      await dropBreaker(mallId, token);
    }
  }

  async function acquire(mallId: string, timing: ResolvedLockOptions): Promise<string> {
    const owner = uniqueSuffix() + uniqueSuffix();
    const deadline = clock.now() + timing.waitMs;
    for (;;) {
      const record: LockRecord = { owner, pid: process.pid, expiresAt: clock.now() + timing.ttlMs };
      if (await tryCreateLock(mallId, record)) return owner;
      try {
        await breakIfStale(mallId, timing.ttlMs);
      } catch (error) {
        throw storeFailed('inspect the lock file of', mallId, error);
      }
      if (clock.now() >= deadline) {
        throw new TokenStoreError(
          'lock_timeout',
          `lock for mall ${mallId} not acquired within ${timing.waitMs} ms`,
          {
            context: { mallId, waitMs: timing.waitMs, directory },
          },
        );
      }
      await pause(clock, timing.retryDelayMs);
    }
  }

  /** Removes the lock file under the breaker if it is still ours; `lock_lost` when it is not. */
  async function release(mallId: string, owner: string): Promise<void> {
    let released = false;
    try {
      const token = await takeBreaker(mallId);
      try {
        const current = await readLockFile(lockPath(mallId));
        if (current?.record?.owner === owner) {
          await rm(lockPath(mallId), { force: true });
          released = true;
        }
      } finally {
        await dropBreaker(mallId, token);
      }
    } catch (error) {
      throw storeFailed('release the lock file of', mallId, error);
    }
    if (released) return;
    throw new TokenStoreError(
      'lock_lost',
      `lock for mall ${mallId} expired and was taken over before release`,
      {
        context: { mallId, directory },
      },
    );
  }

  return {
    async get(mallId) {
      assertMallId(mallId);
      let text: string;
      try {
        text = await readFile(tokenPath(mallId), 'utf8');
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return undefined;
        throw storeFailed('read', mallId, error);
      }
      return decodeTokenSet(mallId, text);
    },

    async set(mallId: string, tokens: TokenSet) {
      assertMallId(mallId);
      await ensureDirectory(mallId);
      const staging = join(directory, `.${mallId}.${uniqueSuffix()}.tmp`);
      try {
        await writeNewFile(staging, encodeTokenSet(tokens));
        await rename(staging, tokenPath(mallId));
        await syncDirectory(directory);
      } catch (error) {
        const cleanedUp = await removeQuietly(staging);
        throw storeFailed('write', mallId, error, cleanedUp ? {} : { leftoverTempFile: staging });
      }
    },

    async delete(mallId) {
      assertMallId(mallId);
      try {
        await rm(tokenPath(mallId), { force: true });
      } catch (error) {
        throw storeFailed('delete', mallId, error);
      }
    },

    async withLock<T>(mallId: string, fn: () => Promise<T>, lockOptions?: LockOptions): Promise<T> {
      assertMallId(mallId);
      await ensureDirectory(mallId);
      const owner = await acquire(mallId, resolveLockOptions(lockOptions));
      return runUnderLease(fn, () => release(mallId, owner));
    },
  };
}
