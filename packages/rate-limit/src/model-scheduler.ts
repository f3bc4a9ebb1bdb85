// Client-side rate limiting under one API's limit model, as an openapi-fetch middleware: a request
// waits for a slot in a local model of the API's bucket (queueing, never failing), which follows
// the rate-limit headers of every response (other apps share the server's bucket). After silence
// as long as the limit remembers, one call goes alone until its headers arrive; a sliding log's
// window is stretched by the longest recent admission-to-answer lag; a 429's `Retry-After` dates the
// calls the server counted and the model did not. Sending, timeouts and retries are the request
// sender's. With a Redis store N workers share the model. Not for naming an API or checking a
// policy (`client-scheduler.ts`), nor for servers (`server-limiter.ts`).
import { createAdmissionQueue } from './admission-queue.js';
import { AlgorithmMemoryStore } from './algorithm-memory-store.js';
import { systemClock, systemSleep } from './clock.js';
import type { ApiLimitModel } from './limit-model.js';
import type {
  FailureHandlingOptions,
  LimitReport,
  RateLimitMiddleware,
  RateLimitMiddlewareCommonOptions,
} from './middleware-types.js';
import type { LimitPolicy } from './policy.js';
import { policyLimit, refillPerSecond } from './policy.js';
import { readRemaining } from './rate-limit-headers.js';
import { createRequestSender } from './request-sender.js';
import { parseRetryAfter } from './retry-backoff.js';

/**
 * Creates the rate-limit middleware for an openapi-fetch client under `model`, whose policy is
 * taken as usable (a generated model was checked with its spec). Register it last (after auth and
 * other middleware that change the request) so the copy kept for retries is the request as sent.
 *
 * @throws RateLimitError `invalid_option` for a bad `maxRetries`, `failureRetries` or `timeout`.
 */
export function createModelScheduler(
  model: ApiLimitModel,
  options: RateLimitMiddlewareCommonOptions & FailureHandlingOptions,
): RateLimitMiddleware {
  const injectedClock = options.clock;
  const clock = injectedClock ?? systemClock;
  const sleep = options.sleep ?? systemSleep;
  const store = options.store ?? new AlgorithmMemoryStore(model.algorithm, { clock });
  const storeTime = (): number | undefined => injectedClock?.();
  const { policy } = model;
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

  const storeKey = (key: string): string => `${model.name}:${key}`;
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
    api: model,
    timeUntilAdmitted: (key) => queue.timeUntilAdmitted(fixedKey(key)),
    lastReport: (key) => reports.get(fixedKey(key)),
  };
}
