// A token store on the local file system, shareable by processes on one host: one JSON file per
// mall (`<dir>/<mallId>.json`, mode 0600, directory created 0700), written atomically — a complete
// temporary file is fsynced and then renamed over the old one, so a reader or a crash never sees a
// partial record and the previous grant stays intact until the new one is durable. The per-mall
// lock is an exclusive lock file (`<mallId>.lock`, created with link(2), which fails if it exists)
// holding an owner id and a lease expiry; an expired lock is moved aside and checked before it is
// taken over. Not for network file systems without atomic rename/link, nor for several hosts
// (use the Redis store).
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
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

/** Reads a lock file; `undefined` when it does not exist. */
async function readLockFile(path: string): Promise<LockFileState | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { record: parseLockRecord(text), modifiedAt: info.mtimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes `content` to a new file with mode 0600, fsyncs it, and closes it. */
async function writeNewFile(path: string, content: string): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
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
   * Moves the lock file aside and returns what was in it, so exactly one caller owns the moved
   * copy; `undefined` when there was no lock file.
   */
  async function moveLockAside(mallId: string): Promise<{ path: string; state: LockFileState } | undefined> {
    const aside = join(directory, `.${mallId}.lock.${uniqueSuffix()}.aside`);
    try {
      await rename(lockPath(mallId), aside);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
    const state = (await readLockFile(aside)) ?? { record: undefined, modifiedAt: 0 };
    return { path: aside, state };
  }

  /** Puts a lock file we moved aside by mistake back, unless someone has taken the lock since. */
  async function restoreLock(mallId: string, aside: string): Promise<void> {
    try {
      await link(aside, lockPath(mallId));
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      // Someone took the free lock in the instant it was aside; its previous holder will see
      // `lock_lost` when it releases. Nothing else can be done here.
    } finally {
      await rm(aside, { force: true });
    }
  }

  /** Removes the lock file if its lease has expired (the holder died or overran its lease). */
  async function breakIfStale(mallId: string, ttlMs: number): Promise<void> {
    const seen = await readLockFile(lockPath(mallId));
    if (seen === undefined) return;
    const now = clock.now();
    const expired = seen.record === undefined ? seen.modifiedAt + ttlMs <= now : seen.record.expiresAt <= now;
    if (!expired) return;
    const moved = await moveLockAside(mallId);
    if (moved === undefined) return;
    const sameLock =
      seen.record === undefined
        ? moved.state.record === undefined
        : moved.state.record?.owner === seen.record.owner;
    if (sameLock) await rm(moved.path, { force: true });
    else await restoreLock(mallId, moved.path);
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

  async function release(mallId: string, owner: string): Promise<void> {
    let moved: Awaited<ReturnType<typeof moveLockAside>>;
    try {
      moved = await moveLockAside(mallId);
      if (moved !== undefined && moved.state.record?.owner === owner) {
        await rm(moved.path, { force: true });
        return;
      }
      if (moved !== undefined) await restoreLock(mallId, moved.path);
    } catch (error) {
      throw storeFailed('release the lock file of', mallId, error);
    }
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
