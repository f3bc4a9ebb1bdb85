// The answer to a refused call: the platform's error envelope with code `too_many_requests` and
// the `Retry-After` value in whole seconds. Built here only, so every API refuses the same way.
// Not for other statuses' envelopes.

/** Body of a 429 response. */
export interface TooManyRequestsBody {
  readonly error: {
    readonly code: 'too_many_requests';
    readonly message: string;
    readonly more_info: { readonly limit: number; readonly retry_after: number };
  };
}

/** `Retry-After` in whole seconds for a wait of `retryAfterMs`: rounded up, at least 1. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** Builds the 429 body for a limit of `limit` and a wait of `retryAfter` seconds. */
export function tooManyRequestsBody(limit: number, retryAfter: number): TooManyRequestsBody {
  return {
    error: {
      code: 'too_many_requests',
      message: `Too many requests: the limit is ${limit}. Retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
      more_info: { limit, retry_after: retryAfter },
    },
  };
}
