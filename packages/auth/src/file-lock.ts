// The file token store's per-mall lock, shared by the processes of one host: an exclusive lock
// file (`<mallId>.lock`, created with link(2), which fails if it exists) holding an owner id and a
// lease expiry. Creating it needs nothing else, but every removal — a holder releasing it, a waiter
// breaking an expired one — happens under a short-lived breaker file (`.<mallId>.lock.break`,
// created exclusively) after re-reading the lock, so a lock file can never be removed except as the
// one that was checked. Every process sharing a directory must use this protocol.
import { link, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { TokenStoreError } from './errors.js';
import {
  breakerPath,
  errorCode,
  lockPath,
  storeFailed,
  uniqueSuffix,
  unlessMissing,
  writeNewFile,
} from './token-files.js';
import { pause, type ResolvedLockOptions, type StoreClock } from './token-store.js';

/** Where the locks are and whose clock their leases follow. */
export interface LockPlace {
  readonly directory: string;
  readonly clock: StoreClock;
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
  const read = await unlessMissing(Promise.all([readFile(path, 'utf8'), stat(path)]));
  return read && { record: parseLockRecord(read[0]), modifiedAt: read[1].mtimeMs };
}

/** Atomically creates the lock file holding `record`; `false` when it already exists. */
async function tryCreateLock({ directory }: LockPlace, mallId: string, record: LockRecord): Promise<boolean> {
  const staging = join(directory, `.${mallId}.lock.${uniqueSuffix()}.tmp`);
  try {
    await writeNewFile(staging, JSON.stringify(record));
    await link(staging, lockPath(directory, mallId));
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw storeFailed(directory, 'create the lock file for', mallId, error);
  } finally {
    await rm(staging, { force: true });
  }
}

/**
 * Deletes a breaker left by a process that died mid-break. It is moved aside first, so only one
 * waiter deletes it, and checked to still be abandoned; a live breaker moved by mistake (one
 * created between our look and our move) is put back. Runs only after a crash mid-break; the one
 * interleaving it cannot repair — yet another breaker created while the live one was aside —
 * needs that crash plus several waiters racing within a few file calls.
 */
async function clearAbandonedBreaker(directory: string, mallId: string): Promise<void> {
  const breaker = breakerPath(directory, mallId);
  const abandoned = (info: { mtimeMs: number }) => info.mtimeMs + BREAKER_ABANDONED_AFTER_MS <= Date.now();
  const seen = await unlessMissing(stat(breaker));
  if (seen === undefined || !abandoned(seen)) return;
  const aside = join(directory, `.${mallId}.lock.break.${uniqueSuffix()}.abandoned`);
  const moved = await unlessMissing(rename(breaker, aside).then(() => aside));
  if (moved === undefined) return;
  try {
    if (!abandoned(await stat(moved))) await link(moved, breaker);
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  } finally {
    await rm(moved, { force: true });
  }
}

/**
 * Takes the mall's breaker — the short mutual exclusion every removal of the lock file happens
 * under; its token, or `undefined` when someone holds it (an abandoned one is cleared for the
 * next attempt).
 */
async function tryTakeBreaker(directory: string, mallId: string): Promise<string | undefined> {
  const token = uniqueSuffix();
  try {
    await writeNewFile(breakerPath(directory, mallId), token, { durable: false });
    return token;
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  await clearAbandonedBreaker(directory, mallId);
  return undefined;
}

/** Takes the breaker, waiting (in real time, see {@link BREAKER_ABANDONED_AFTER_MS}) while it is held. */
async function takeBreaker(directory: string, mallId: string): Promise<string> {
  for (;;) {
    const token = await tryTakeBreaker(directory, mallId);
    if (token !== undefined) return token;
    await delay(1 + Math.random() * 2);
  }
}

/** Removes the breaker if it is still ours (it is not if we overran the bound and it was cleared). */
async function dropBreaker(directory: string, mallId: string, token: string): Promise<void> {
  const breaker = breakerPath(directory, mallId);
  const content = await unlessMissing(readFile(breaker, 'utf8'));
  if (content === token) await rm(breaker, { force: true });
}

/** Whether a lock file's lease is over (an unreadable one is judged by its age). */
function isExpired(clock: StoreClock, state: LockFileState, ttlMs: number): boolean {
  const now = clock.now();
  return state.record === undefined ? state.modifiedAt + ttlMs <= now : state.record.expiresAt <= now;
}

/**
 * Removes the lock file if its lease has expired (the holder died or overran its lease). The
 * check is repeated under the breaker, where the file cannot change: it can only be created
 * while absent, and removed only under the breaker. A busy breaker means someone else is
 * already removing a lock, so this caller just retries later.
 */
async function breakIfStale({ directory, clock }: LockPlace, mallId: string, ttlMs: number): Promise<void> {
  const lock = lockPath(directory, mallId);
  const seen = await readLockFile(lock);
  if (seen === undefined || !isExpired(clock, seen, ttlMs)) return;
  const token = await tryTakeBreaker(directory, mallId);
  if (token === undefined) return;
  try {
    const current = await readLockFile(lock);
    if (current !== undefined && isExpired(clock, current, ttlMs)) await rm(lock, { force: true });
  } finally {
    await dropBreaker(directory, mallId, token);
  }
}

/** Takes the mall's lock, waiting up to `timing.waitMs`; resolves with the owner id to release it with. */
export async function acquireLock(
  place: LockPlace,
  mallId: string,
  timing: ResolvedLockOptions,
): Promise<string> {
  const { directory, clock } = place;
  const owner = uniqueSuffix() + uniqueSuffix();
  const deadline = clock.now() + timing.waitMs;
  for (;;) {
    const record: LockRecord = { owner, pid: process.pid, expiresAt: clock.now() + timing.ttlMs };
    if (await tryCreateLock(place, mallId, record)) return owner;
    try {
      await breakIfStale(place, mallId, timing.ttlMs);
    } catch (error) {
      throw storeFailed(directory, 'inspect the lock file of', mallId, error);
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
export async function releaseLock({ directory }: LockPlace, mallId: string, owner: string): Promise<void> {
  let released = false;
  try {
    const token = await takeBreaker(directory, mallId);
    try {
      const current = await readLockFile(lockPath(directory, mallId));
      if (current?.record?.owner === owner) {
        await rm(lockPath(directory, mallId), { force: true });
        released = true;
      }
    } finally {
      await dropBreaker(directory, mallId, token);
    }
  } catch (error) {
    throw storeFailed(directory, 'release the lock file of', mallId, error);
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
