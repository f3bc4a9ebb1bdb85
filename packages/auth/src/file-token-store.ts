// A token store on the local file system, shareable by processes on one host: one JSON file per
// mall (`<dir>/<mallId>.json`, mode 0600, directory created 0700), written atomically — a complete
// temporary file is fsynced and then renamed over the old one, so a reader or a crash never sees a
// partial record and the previous grant stays intact until the new one is durable. The per-mall
// lock is file-lock.ts's lock-file protocol, which every process sharing a directory must use. Not
// for network file systems without atomic rename/link, nor for several hosts (use the Redis store).
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { acquireLock, type LockPlace, releaseLock } from './file-lock.js';
import {
  errorCode,
  removeQuietly,
  storeFailed,
  syncDirectory,
  tokenPath,
  uniqueSuffix,
  writeNewFile,
} from './token-files.js';
import type { TokenSet } from './token-set.js';
import { decodeTokenSet, encodeTokenSet } from './token-set-codec.js';
import {
  assertMallId,
  type LockOptions,
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

/**
 * Creates a {@link TokenStore} keeping each mall's tokens in `<directory>/<mallId>.json`. Processes
 * on the same host sharing the directory share tokens and locks.
 */
export function createFileTokenStore(options: FileTokenStoreOptions): TokenStore {
  const place: LockPlace = { directory: options.directory, clock: options.clock ?? systemStoreClock };
  const { directory } = place;
  let directoryReady: Promise<void> | undefined;

  async function ensureDirectory(mallId: string): Promise<void> {
    directoryReady ??= mkdir(directory, { recursive: true, mode: 0o700 }).then(() => undefined);
    try {
      await directoryReady;
    } catch (error) {
      directoryReady = undefined;
      throw storeFailed(directory, 'create the directory for', mallId, error);
    }
  }

  return {
    async get(mallId) {
      assertMallId(mallId);
      let text: string;
      try {
        text = await readFile(tokenPath(directory, mallId), 'utf8');
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return undefined;
        throw storeFailed(directory, 'read', mallId, error);
      }
      return decodeTokenSet(mallId, text);
    },

    async set(mallId: string, tokens: TokenSet) {
      assertMallId(mallId);
      await ensureDirectory(mallId);
      const staging = join(directory, `.${mallId}.${uniqueSuffix()}.tmp`);
      try {
        await writeNewFile(staging, encodeTokenSet(tokens));
        await rename(staging, tokenPath(directory, mallId));
        await syncDirectory(directory);
      } catch (error) {
        const cleanedUp = await removeQuietly(staging);
        throw storeFailed(directory, 'write', mallId, error, cleanedUp ? {} : { leftoverTempFile: staging });
      }
    },

    async delete(mallId) {
      assertMallId(mallId);
      try {
        await rm(tokenPath(directory, mallId), { force: true });
      } catch (error) {
        throw storeFailed(directory, 'delete', mallId, error);
      }
    },

    async withLock<T>(mallId: string, fn: () => Promise<T>, lockOptions?: LockOptions): Promise<T> {
      assertMallId(mallId);
      await ensureDirectory(mallId);
      const owner = await acquireLock(place, mallId, resolveLockOptions(lockOptions));
      return runUnderLease(fn, () => releaseLock(place, mallId, owner));
    },
  };
}
