// The rate-limit middleware's shape and the options every way of making one shares: what
// `createRateLimitMiddleware` (client-scheduler.ts) is given and returns, and what
// `createModelScheduler` (model-scheduler.ts), which does the scheduling, takes and builds. Types only.

import type { ApiLimit } from './api-limits.js';
import type { Clock, Sleep } from './clock.js';
import type { FetchLike, RequestSender, RequestSenderOptions } from './request-sender.js';
import type { BackoffOptions } from './retry-backoff.js';
import type { RateLimitStore } from './store.js';

/** Options of the rate-limit middleware whatever it schedules for. */
export interface RateLimitMiddlewareCommonOptions {
  /**
   * Where the local model lives (default: a new store in this process's memory). Give every worker a
   * `RedisStore` on the same Redis (and the same `key`) to schedule them together.
   */
  readonly store?: RateLimitStore;
  /** Time source (default `Date.now`); when given it is also passed to the store. */
  readonly clock?: Clock;
  /** How to wait (default: real timers). Pair a simulated `clock` with a simulated `sleep`. */
  readonly sleep?: Sleep;
  /** Times a 429 is resent before it is handed back (default 3). */
  readonly maxRetries?: number;
  /** The bucket a request belongs to: a fixed name or one derived from the request (default `default`). */
  readonly key?: string | ((request: Request) => string);
  /** Resends 429s (default: the client's `fetch`, else `globalThis.fetch`). */
  readonly fetch?: FetchLike;
  /** Backoff of 429 retries (default 500 ms doubling, capped at 30 s). */
  readonly backoff?: BackoffOptions;
  /** Jitter source in [0, 1) (default `Math.random`). */
  readonly random?: () => number;
}

/** How failures are retried and attempts timed out; see {@link RequestSenderOptions}. */
export type FailureHandlingOptions = Pick<RequestSenderOptions, 'timeout' | 'onEvent'> & {
  /** Times a failed call (500, 503, 504, 408, dropped connection, timeout) is resent (default 2). */
  readonly failureRetries?: number;
  /** Backoff of failure retries (default 500 ms doubling, capped at 8 s, full jitter). */
  readonly failureBackoff?: BackoffOptions;
};

/** What the rate-limit headers of the last response said. */
export interface LimitReport {
  /** Units in use (calls in the window, or the bucket level): `capacity - remaining`. */
  readonly used: number;
  /** Units that could still be spent right away. */
  readonly remaining: number;
  /** The API's limit or bucket capacity. */
  readonly capacity: number;
  /** When the response arrived (ms since the epoch, the scheduler's clock). */
  readonly reportedAt: number;
}

/**
 * An openapi-fetch middleware (register it last with `client.use(...)`, and pass its `fetch` to
 * `createClient` so first attempts are timed and reported too) plus scheduling queries.
 */
export interface RateLimitMiddleware extends RequestSender {
  /** The API limit it schedules for. */
  readonly api: ApiLimit;
  /** Ms until a request for `key` (default: the configured fixed key) would be sent, without consuming. */
  timeUntilAdmitted(key?: string): Promise<number>;
  /** What the rate-limit headers of the last response for `key` (default: the fixed key) reported. */
  lastReport(key?: string): LimitReport | undefined;
}
