// Constant-time string comparison for credentials, OAuth state values and similar secrets: both
// sides are hashed to equal-length SHA-256 digests and compared with `crypto.timingSafeEqual`, so
// neither the content nor the length of the expected value leaks through timing. Not a password
// hash: never store these digests.
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Compares two strings in time independent of where they differ and of their lengths.
 *
 * @returns `true` when `expected` and `actual` are the same string.
 */
export function constantTimeEqual(expected: string, actual: string): boolean {
  return timingSafeEqual(digest(expected), digest(actual));
}
