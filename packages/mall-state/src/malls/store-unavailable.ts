// The one error a shared store (Redis, or the PostgreSQL data storage) raises when it cannot answer:
// the call changed nothing. The mocks answer it with 503 and the API's error envelope instead of a
// 500 or an answer from stale memory; the cause stays on the error for the log, never in the answer.

/** A shared store could not answer; nothing was changed. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  /** What callers that only see the error's shape test for. */
  readonly code = 'store_unavailable';
}

/** The message a caller gets with the 503 (no detail of the store or its address). */
export const storeUnavailableMessage = 'The sandbox’s shared state store is unavailable; retry shortly.';
