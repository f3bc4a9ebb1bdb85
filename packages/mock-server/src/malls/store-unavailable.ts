// The error a shared state store (Redis) raises when it cannot answer: the connection is down or
// a command failed. The mocks answer it with 503 and the API's error envelope instead of a 500 or
// an answer from stale memory; the cause stays on the error for the log, never in the answer.

/** A shared state store could not answer. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

/** The message a caller gets with the 503 (no detail of the store or its address). */
export const storeUnavailableMessage = 'The sandbox’s shared state store is unavailable; retry shortly.';
