// The server side of a rate limit, framework-agnostic: `take(key)` decides one call under an API's
// policy and returns the status (200 to go on, 429 to refuse), the API's exact rate-limit headers
// for every response, and for a refusal `Retry-After` and the error body. The caller writes them
// with whatever HTTP framework it uses (node:http in the mock server). Not for keying: the caller
// chooses the key (client IP, mall id…).
import { type ApiLimit, type ApiName, resolveApiLimit } from './api-limits.js';
import type { Clock } from './clock.js';
import { MemoryStore } from './memory-store.js';
import type { Decision } from './policy.js';
import { checkPolicy } from './policy.js';
import { formatRateLimitHeaders } from './rate-limit-headers.js';
import type { RateLimitStore } from './store.js';
import { retryAfterSeconds, type TooManyRequestsBody, tooManyRequestsBody } from './too-many-requests.js';

/** Options of {@link createServerLimiter}. */
export interface ServerLimiterOptions {
  /** One of the mall APIs, or a custom policy with its header table. */
  readonly api: ApiName | ApiLimit;
  /** Where states live (default: a new {@link MemoryStore}). Share a Redis store across processes. */
  readonly store?: RateLimitStore;
  /** Time source; when given, its time is passed to the store, otherwise the store's own is used. */
  readonly clock?: Clock;
}

/** The outcome of one call, ready to write into a response. */
export interface LimitResult {
  /** Whether the call may proceed. */
  readonly allowed: boolean;
  /** 200 when the call may proceed (the handler sets the real status), 429 when refused. */
  readonly status: 200 | 429;
  /** Headers to send on the response, whatever its status; with `Retry-After` when refused. */
  readonly headers: Record<string, string>;
  /** Whole seconds to wait, when refused. */
  readonly retryAfterSeconds?: number;
  /** The 429 body, when refused. */
  readonly body?: TooManyRequestsBody;
  /** The limiter's decision behind all of the above. */
  readonly decision: Decision;
}

/** A rate limiter for one API. */
export interface ServerLimiter {
  /** The API limit it enforces. */
  readonly api: ApiLimit;
  /** Decides one call of `cost` (default 1) for `key` and returns what to answer. */
  take(key: string, cost?: number): Promise<LimitResult>;
}

/**
 * Creates a server-side limiter for an API. Store keys are namespaced by the API's name, so one
 * store can serve every API.
 *
 * @throws RateLimitError `invalid_policy` when a custom policy is unusable.
 */
export function createServerLimiter(options: ServerLimiterOptions): ServerLimiter {
  const api = resolveApiLimit(options.api);
  const invalid = checkPolicy(api.policy);
  if (invalid !== undefined) throw invalid;
  const store = options.store ?? new MemoryStore(options.clock === undefined ? {} : { clock: options.clock });
  const clock = options.clock;

  return {
    api,
    async take(key, cost = 1) {
      const decision = await store.decide(`${api.name}:${key}`, api.policy, clock?.(), cost);
      const headers = formatRateLimitHeaders(api.headers, decision, api.policy, cost);
      if (decision.allowed) return { allowed: true, status: 200, headers, decision };
      const retryAfter = retryAfterSeconds(decision.retryAfterMs);
      return {
        allowed: false,
        status: 429,
        headers: { ...headers, 'Retry-After': String(retryAfter) },
        retryAfterSeconds: retryAfter,
        body: tooManyRequestsBody(decision.limit, retryAfter),
        decision,
      };
    },
  };
}
