// Client-side rate limiting as an openapi-fetch middleware for any limit: the options and the
// middleware's shape, and `createRateLimitMiddleware`, which takes one of the mall APIs by name, a
// custom API limit or a bare policy, checks the policy, and schedules with the four algorithms
// together (each policy run by the algorithm of its kind) through `createModelScheduler`, where
// the scheduling itself lives (`model-scheduler.ts`). A typed client, which knows its API, hands
// its API's model to `createModelScheduler` directly. Not for servers; see `server-limiter.ts`.
import { type ApiLimit, type ApiName, resolveApiLimit } from './api-limits.js';
import type { Clock, Sleep } from './clock.js';
import { anyLimitAlgorithm } from './limit-state.js';
import { createModelScheduler } from './model-scheduler.js';
import type { LimitPolicy } from './policy.js';
import { checkPolicy } from './policy.js';
import type { FetchLike, RequestSender, RequestSenderOptions } from './request-sender.js';
import type { BackoffOptions } from './retry-backoff.js';
import type { RateLimitStore } from './store.js';

/** Options of {@link createRateLimitMiddleware} whatever it schedules for. */
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

/** Schedule for one of the mall APIs, or for a custom API limit. */
export interface ApiMiddlewareOptions extends RateLimitMiddlewareCommonOptions, FailureHandlingOptions {
  readonly api: ApiName | ApiLimit;
  readonly policy?: undefined;
}

/** Schedule for a bare policy; the rate-limit headers of responses are still read generically. */
export interface PolicyMiddlewareOptions extends RateLimitMiddlewareCommonOptions, FailureHandlingOptions {
  readonly policy: LimitPolicy;
  readonly api?: undefined;
}

/** Options of {@link createRateLimitMiddleware}: one of the mall APIs, or a bare policy. */
export type RateLimitMiddlewareOptions = ApiMiddlewareOptions | PolicyMiddlewareOptions;

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

/**
 * Creates the rate-limit middleware for an openapi-fetch client. Register it last (after auth and
 * other middleware that change the request) so the copy kept for retries is the request as sent.
 *
 * @throws RateLimitError `invalid_policy` for an unusable policy, `invalid_option` for a bad
 *   `maxRetries`, `failureRetries` or `timeout`.
 */
export function createRateLimitMiddleware(options: RateLimitMiddlewareOptions): RateLimitMiddleware {
  const api: ApiLimit =
    options.api !== undefined
      ? resolveApiLimit(options.api)
      : { name: options.policy.kind, policy: options.policy, headers: {} };
  const invalid = checkPolicy(api.policy);
  if (invalid !== undefined) throw invalid;
  return { ...createModelScheduler({ ...api, algorithm: anyLimitAlgorithm }, options), api };
}
