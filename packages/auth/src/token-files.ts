// The file token store's files: where each mall's token, lock and breaker files live in the
// store's directory, the file primitives its writes and its lock protocol share (a new file made
// exclusively with mode 0600 and fsynced, a directory fsynced, ENOENT read as "missing"), and the
// error a failed file call becomes (its cause sanitized, so no token reaches a log).
import { randomBytes } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sanitizedCause, TokenStoreError } from './errors.js';

/** One mall's token file in the store's directory. */
export const tokenPath = (directory: string, mallId: string): string => join(directory, `${mallId}.json`);
/** One mall's lock file. */
export const lockPath = (directory: string, mallId: string): string => join(directory, `${mallId}.lock`);
/** One mall's breaker file, held while its lock file is removed. */
export const breakerPath = (directory: string, mallId: string): string =>
  join(directory, `.${mallId}.lock.break`);

/** A failed file call of the store as the store's error, naming what it was doing. */
export function storeFailed(
  directory: string,
  operation: string,
  mallId: string,
  error: unknown,
  extra = {},
): TokenStoreError {
  return new TokenStoreError('store_failed', `could not ${operation} the token file of mall ${mallId}`, {
    context: { mallId, operation, directory, ...extra },
    cause: sanitizedCause(error),
  });
}

/** The error's `code` (`ENOENT`, `EEXIST`, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code: unknown = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A random suffix for a file name no other process picks. */
export function uniqueSuffix(): string {
  return randomBytes(8).toString('hex');
}

/** The result of a file operation, or `undefined` when the file does not exist (ENOENT). */
export async function unlessMissing<T>(operation: Promise<T>): Promise<T | undefined> {
  try {
    return await operation;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes `content` to a new file with mode 0600 (failing with EEXIST if it exists), fsyncs it
 * unless it need not survive a power loss, and closes it.
 */
export async function writeNewFile(path: string, content: string, { durable = true } = {}): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsyncs a directory so a rename or link inside it survives a power loss. */
export async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes a file, reporting (not throwing) whether that failed — for cleanup after another error. */
export async function removeQuietly(path: string): Promise<boolean> {
  try {
    await rm(path, { force: true });
    return true;
  } catch {
    return false; // the caller records the failure in the error it is about to throw
  }
}
