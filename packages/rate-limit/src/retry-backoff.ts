// How long a client waits before resending a request: for a refused (429) request bounded
// exponential backoff with added jitter, for a failed one (5xx, 408, dropped connection, timeout)
// capped exponential backoff with full jitter; neither is ever shorter than the server's
// `Retry-After`. Also parses `Retry-After` (seconds or an HTTP date). Pure; the request sender
// does the waiting and resending.

/** Backoff settings of retries. */
export interface BackoffOptions {
  /** Backoff before the first retry, doubled on each further one (default 500 ms). */
  readonly initialMs?: number;
  /**
   * Cap of the exponential part (default 30 000 ms for 429s, 8 000 ms for failures); a longer
   * `Retry-After` is still honoured.
   */
  readonly maxMs?: number;
}

/**
 * Parses a `Retry-After` value: delay-seconds or an HTTP date.
 *
 * @returns ms to wait from `nowMs` (0 for a date in the past), or `undefined` when absent or invalid.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Delay before retry number `attempt` (0 for the first retry): the larger of `retryAfterMs` and
 * `min(maxMs, initialMs * 2^attempt)`, plus a random jitter of up to half that backoff so clients
 * refused together do not all come back at the same instant.
 *
 * @param random a number in [0, 1) (default `Math.random`).
 */
export function retryDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  backoff: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const { initialMs = 500, maxMs = 30_000 } = backoff;
  const exponential = Math.min(maxMs, initialMs * 2 ** attempt);
  return Math.max(retryAfterMs ?? 0, exponential) + random() * (exponential / 2);
}

/**
 * Delay before retry number `attempt` (0 for the first) of a failed request: "full jitter", a
 * random time between 0 and `min(maxMs, initialMs * 2^attempt)` (defaults 500 ms and 8 s), so
 * clients that failed together spread out; never shorter than `retryAfterMs`.
 *
 * @param random a number in [0, 1) (default `Math.random`).
 */
export function fullJitterDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  backoff: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const { initialMs = 500, maxMs = 8_000 } = backoff;
  return Math.max(retryAfterMs ?? 0, random() * Math.min(maxMs, initialMs * 2 ** attempt));
}
