// One API's limit: the `ApiLimit` (name, policy, header table) an `x-rate-limit` extension states,
// turned into one without checking by `apiLimitFromExtension`, and the `ApiLimitModel`, that limit
// with the one algorithm that runs its policy. A client scheduling a single API takes that API's
// model (src/generated/<api>-limit.ts), so its bundle carries that algorithm and that extension
// only. Not for checking a spec or naming the three APIs: see `api-limits.ts`.
import type { LimitAlgorithm, LimitPolicy } from './policy.js';
import type { HeaderTable } from './rate-limit-headers.js';

/** What a limit is counted per: the caller's IP address, or the mall the call acts on. */
export type CountedPer = 'client-ip' | 'mall';

/** One API's rate limit: a name (used to namespace store keys), its policy and its headers. */
export interface ApiLimit<P extends LimitPolicy = LimitPolicy> {
  readonly name: string;
  readonly policy: P;
  readonly headers: HeaderTable;
  /** What the limit is counted per, as the spec says; set by `apiLimitFromSpec` (the clients never need it). */
  readonly countedPer?: CountedPer;
}

/** An API's limit with the algorithm of its policy's kind, which alone runs it. */
export interface ApiLimitModel<P extends LimitPolicy = LimitPolicy, S = unknown> extends ApiLimit<P> {
  readonly algorithm: LimitAlgorithm<P, S>;
}

/** An API's `x-rate-limit` extension (specs/README.md, "Extensions"), as the spec states it. */
export interface RateLimitExtension {
  /** `sliding-log`, `fixed-window`, `leaky-bucket` or `token-bucket`. */
  readonly algorithm: string;
  readonly limit?: number;
  readonly 'window-seconds'?: number;
  readonly capacity?: number;
  readonly 'drain-per-second'?: number;
  readonly 'refill-interval-seconds'?: number;
  /** `client-ip` or `mall`; absent from the clients' generated copy. */
  readonly 'counted-per'?: string;
  /** Header name -> what it shows (a {@link HeaderField}). */
  readonly headers: Readonly<Record<string, string>>;
}

/** The policy an extension states (checked by `checkRateLimitExtension`). */
function policyOf(extension: RateLimitExtension): LimitPolicy {
  const { algorithm: kind, limit = 0, capacity = 0 } = extension;
  const ms = (extension['window-seconds'] ?? extension['refill-interval-seconds'] ?? 0) * 1000;
  if (kind === 'leaky-bucket') return { kind, capacity, leakPerSecond: extension['drain-per-second'] ?? 0 };
  if (kind === 'token-bucket') return { kind, capacity, refillIntervalMs: ms };
  return { kind: kind as 'sliding-log' | 'fixed-window', limit, windowMs: ms };
}

/**
 * Turns an API's `x-rate-limit` extension into its {@link ApiLimit}, without checking it (the
 * clients' generated extensions were checked when generated and by the tests; a spec read at run
 * time goes through `apiLimitFromSpec`, which checks first). The extension: `algorithm`
 * (`sliding-log`, `fixed-window`, `leaky-bucket`, `token-bucket`), `limit` and `window-seconds`, or
 * `capacity` with `drain-per-second` or `refill-interval-seconds`, `counted-per` and `headers`.
 */
export function apiLimitFromExtension(extension: RateLimitExtension, name: string): ApiLimit {
  return { name, policy: policyOf(extension), headers: extension.headers as HeaderTable };
}

/**
 * The {@link ApiLimitModel} of an extension, run by `algorithm`, which must be the algorithm the
 * extension names (the generated models pick it by that name).
 */
export function limitModel<P extends LimitPolicy, S>(
  extension: RateLimitExtension,
  name: string,
  algorithm: LimitAlgorithm<P, S>,
): ApiLimitModel<P, S> {
  return { ...(apiLimitFromExtension(extension, name) as ApiLimit<P>), algorithm };
}
