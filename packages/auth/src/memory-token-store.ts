// A token store that lives in this process's memory: for tests, scripts and single-process apps.
// Its lock is an in-process FIFO mutex per mall (no lease: a process cannot die while holding it
// and keep running). Not shared between processes: use the file or Redis store for that.
import { TokenStoreError } from './errors.js';
import type { TokenSet } from './token-set.js';
import {
  assertMallId,
  type LockOptions,
  resolveLockOptions,
  type StoreClock,
  systemStoreClock,
  type TokenStore,
} from './token-store.js';

/** Options of {@link createMemoryTokenStore}. */
export interface MemoryTokenStoreOptions {
  /** Clock the lock's `waitMs` is measured on. Default {@link systemStoreClock}. */
  readonly clock?: StoreClock;
}

interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Creates an empty in-memory {@link TokenStore}. Returned token sets are the stored objects. */
export function createMemoryTokenStore(options: MemoryTokenStoreOptions = {}): TokenStore {
  const clock = options.clock ?? systemStoreClock;
  const tokens = new Map<string, TokenSet>();
  const lockTails = new Map<string, Promise<void>>();

  async function waitForTurn(previous: Promise<void>, mallId: string, waitMs: number): Promise<void> {
    const turnCame = new AbortController();
    const timeout = clock.sleep(waitMs, turnCame.signal).then(
      () => {
        if (turnCame.signal.aborted) return;
        throw new TokenStoreError(
          'lock_timeout',
          `lock for mall ${mallId} not acquired within ${waitMs} ms`,
          {
            context: { mallId, waitMs },
          },
        );
      },
      () => undefined, // the sleep was aborted: our turn came first
    );
    try {
      await Promise.race([previous, timeout]);
    } finally {
      turnCame.abort();
    }
  }

  return {
    async get(mallId) {
      assertMallId(mallId);
      return tokens.get(mallId);
    },
    async set(mallId, value) {
      assertMallId(mallId);
      tokens.set(mallId, value);
    },
    async delete(mallId) {
      assertMallId(mallId);
      tokens.delete(mallId);
    },
    async withLock<T>(mallId: string, fn: () => Promise<T>, options?: LockOptions): Promise<T> {
      assertMallId(mallId);
      const { waitMs } = resolveLockOptions(options);
      const previous = lockTails.get(mallId) ?? Promise.resolve();
      const mine = deferred();
      // Whoever comes next waits for the previous holder AND for us, even if we give up waiting.
      const tail = previous.then(() => mine.promise);
      lockTails.set(mallId, tail);
      try {
        await waitForTurn(previous, mallId, waitMs);
        return await fn();
      } finally {
        mine.resolve();
        if (lockTails.get(mallId) === tail) lockTails.delete(mallId);
      }
    },
  };
}
