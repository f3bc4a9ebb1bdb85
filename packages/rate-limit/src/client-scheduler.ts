// Client-side rate limiting as an openapi-fetch middleware: before a request is sent it waits for
// a slot in a local model of the API's bucket (queueing, never failing), keeps that model in step
// with the rate-limit headers of every response (other apps share the server's bucket), remembers
// what those headers last reported, and resends a 429 with bounded exponential backoff that honours
// `Retry-After`. While it has heard nothing from the server for as long as the limit remembers
// (a window, the time to drain or refill), it sends one call alone and waits for its headers before
// the rest. A sliding log's window is stretched by the longest recent time from admission to answer,
// since the server logs a call when it arrives, not when it left; a 429 logs the calls the server
// counted and the model did not to expire when its `Retry-After` says. And, through the request sender it builds on, times attempts out and retries
// failures under the same queue. With a Redis store the model is shared, so N workers together stay
// under the limit. Structurally typed: it imports nothing from openapi-fetch. Not for servers; see
// `server-limiter.ts`.
import { createAdmissionQueue } from './admission-queue.js';
import { type ApiLimit, type ApiName, resolveApiLimit } from './api-limits.js';
import { type Clock, type Sleep, systemClock, systemSleep } from './clock.js';
import { MemoryStore } from './memory-store.js';
import type { LimitPolicy } from './policy.js';
import { checkPolicy, policyLimit, refillPerSecond } from './policy.js';
import { readRemaining } from './rate-limit-headers.js';
import {
  createRequestSender,
  type FetchLike,
  type RequestSender,
  type RequestSenderOptions,
} from './request-sender.js';
import { type BackoffOptions, parseRetryAfter } from './retry-backoff.js';
import type { RateLimitStore } from './store.js';

/** Options of {@link createRateLimitMiddleware} whatever it schedules for. */
export interface RateLimitMiddlewareCommonOptions {
  /**
   * Where the local model lives (default: a new {@link MemoryStore}). Give every worker a
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
  const injectedClock = options.clock;
  const clock = injectedClock ?? systemClock;
  const sleep = options.sleep ?? systemSleep;
  const store = options.store ?? new MemoryStore({ clock });
  const storeTime = (): number | undefined => injectedClock?.();
  const { policy } = api;
  const capacity = policyLimit(policy);
  /** Ms after which a server's report tells nothing more: a window, or the time to drain or refill. */
  const horizonMs = (capacity * 1000) / refillPerSecond(policy);
  const reports = new Map<string, LimitReport>();
  /** When a response last reported the state of each key (a 429 forgets it). */
  const heardAt = new Map<string, number>();
  const admittedAt = new WeakMap<Request, number>();
  /** Per key, ms from admission to answer of the last `capacity` answered attempts. */
  const lags = new Map<string, number[]>();
  const policyOf = (key: string): LimitPolicy =>
    policy.kind === 'sliding-log'
      ? { ...policy, windowMs: policy.windowMs + Math.max(0, ...(lags.get(key) ?? [])) }
      : policy;
  const queue = createAdmissionQueue({
    store,
    policy: policyOf,
    clock,
    storeTime,
    sleep,
    holdAfter: (key) =>
      clock() - (heardAt.get(key) ?? Number.NEGATIVE_INFINITY) < horizonMs ? 0 : horizonMs,
  });

  const storeKey = (key: string): string => `${api.name}:${key}`;
  const keyOf = (request: Request): string => {
    const { key } = options;
    return storeKey(typeof key === 'function' ? key(request) : (key ?? 'default'));
  };
  const fixedKey = (key: string | undefined): string =>
    storeKey(key ?? (typeof options.key === 'string' ? options.key : 'default'));

  const sender = createRequestSender({
    admission: {
      async admit(request, admitOptions) {
        const { waited } = await queue.admit(keyOf(request), admitOptions);
        admittedAt.set(request, clock());
        return waited;
      },
      pause(request, untilMs) {
        queue.pause(keyOf(request), untilMs);
      },
      /** Raises the local usage to what the server reported (a 429 without headers means "full"). */
      async observe(request, response) {
        const key = keyOf(request);
        const now = clock();
        const since = admittedAt.get(request);
        if (since !== undefined) {
          const lag = lags.get(key) ?? [];
          if (lag.push(now - since) > capacity) lag.shift();
          lags.set(key, lag);
        }
        const reported = readRemaining(response.headers);
        if (reported !== undefined) {
          const remaining = Math.min(reported, capacity);
          reports.set(key, { used: capacity - remaining, remaining, capacity, reportedAt: now });
        }
        const keyPolicy = policyOf(key);
        if (response.status === 429) {
          heardAt.delete(key);
          const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'), now);
          const at =
            keyPolicy.kind === 'sliding-log' && retryAfterMs !== undefined
              ? (storeTime() ?? now) + retryAfterMs - keyPolicy.windowMs
              : storeTime();
          await store.observe(key, keyPolicy, reported ?? 0, at);
        } else if (reported !== undefined) {
          heardAt.set(key, now);
          await store.observe(key, keyPolicy, reported, storeTime());
        }
      },
      finished(request) {
        queue.release(keyOf(request));
      },
    },
    clock,
    sleep,
    random: options.random,
    fetch: options.fetch,
    timeout: options.timeout,
    maxRetries: options.failureRetries,
    backoff: options.failureBackoff,
    rateLimitRetries: options.maxRetries,
    rateLimitBackoff: options.backoff,
    onEvent: options.onEvent,
  });

  return {
    ...sender,
    api,
    timeUntilAdmitted: (key) => queue.timeUntilAdmitted(fixedKey(key)),
    lastReport: (key) => reports.get(fixedKey(key)),
  };
}
