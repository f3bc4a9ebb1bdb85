// The rate limits of the three mall APIs, in one table: each API's policy and the exact headers
// it sends. Server limiters and client schedulers both read it; there are no per-API branches
// anywhere else. Not for which key a limit applies to — collection limits per client IP and
// admin per mall; the seed does not say for analytics — the caller picks the key.

import type { FixedWindowPolicy, LeakyBucketPolicy, LimitPolicy, TokenBucketPolicy } from './policy.js';
import type { HeaderTable } from './rate-limit-headers.js';

/** Names of the mall APIs with a rate limit. */
export type ApiName = 'collection' | 'admin' | 'analytics';

/** One API's rate limit: a name (used to namespace store keys), its policy and its headers. */
export interface ApiLimit<P extends LimitPolicy = LimitPolicy> {
  readonly name: string;
  readonly policy: P;
  readonly headers: HeaderTable;
}

/** The table of the three APIs' limits, each with its precise policy type. */
export interface ApiLimits {
  readonly collection: ApiLimit<FixedWindowPolicy>;
  readonly admin: ApiLimit<LeakyBucketPolicy>;
  readonly analytics: ApiLimit<TokenBucketPolicy>;
}

/**
 * The three APIs' limits:
 * - collection: fixed window, 40 calls per minute (per client IP); `X-RateLimit-Limit`,
 *   `X-RateLimit-Remaining`, `X-Api-Call-Limit: used/40`.
 * - admin: leaky bucket of 40 draining 2 per second (per mall); `X-Api-Call-Limit: used/40`
 *   where used is the bucket level after the call, rounded up.
 * - analytics: token bucket, burst 10, one token every 2 s; `X-RateLimit-Remaining`,
 *   `X-RateLimit-Requested-Tokens`, `X-RateLimit-Burst-Capacity`, `X-RateLimit-Replenish-Rate`.
 *   The replenish rate is sent as `0.5` (tokens per second): the seed's refill rule, one token
 *   every two seconds, wins over its example header value `2`.
 */
export const apiLimits: ApiLimits = {
  collection: {
    name: 'collection',
    policy: { kind: 'fixed-window', limit: 40, windowMs: 60_000 },
    headers: {
      'X-RateLimit-Limit': 'limit',
      'X-RateLimit-Remaining': 'remaining',
      'X-Api-Call-Limit': 'used/limit',
    },
  },
  admin: {
    name: 'admin',
    policy: { kind: 'leaky-bucket', capacity: 40, leakPerSecond: 2 },
    headers: { 'X-Api-Call-Limit': 'used/limit' },
  },
  analytics: {
    name: 'analytics',
    policy: { kind: 'token-bucket', capacity: 10, refillIntervalMs: 2_000 },
    headers: {
      'X-RateLimit-Remaining': 'remaining',
      'X-RateLimit-Requested-Tokens': 'cost',
      'X-RateLimit-Burst-Capacity': 'limit',
      'X-RateLimit-Replenish-Rate': 'refill-per-second',
    },
  },
};

/** The limit for an API name, or a custom {@link ApiLimit} as given. */
export function resolveApiLimit(api: ApiName | ApiLimit): ApiLimit {
  return typeof api === 'string' ? apiLimits[api] : api;
}
