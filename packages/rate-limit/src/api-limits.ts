// The rate limits of the three mall APIs, derived from the specs: each API's root `x-rate-limit`
// extension (algorithm, limit or capacity, window, drain or refill rate, what it is counted per,
// the headers it reports) becomes an `ApiLimit`. `apiLimitFromSpec` reads a loaded document (the
// mock does, at run time); `apiLimits` applies the same function to the extensions copied from
// the bundles at build time (src/generated/api-limits.ts), so clients never load a spec. No limit
// number lives here. Not for which key a limit applies to: `countedPer` says what, the caller
// builds the key.
import { RateLimitError } from './errors.js';
import { rateLimitExtensions } from './generated/api-limits.js';
import { checkPolicy, type LimitPolicy } from './policy.js';
import type { HeaderTable } from './rate-limit-headers.js';

/** Names of the mall APIs with a rate limit. */
export type ApiName = 'collection' | 'admin' | 'analytics';

/** What a limit is counted per: the caller's IP address, or the mall the call acts on. */
export type CountedPer = 'client-ip' | 'mall';

/** One API's rate limit: a name (used to namespace store keys), its policy and its headers. */
export interface ApiLimit<P extends LimitPolicy = LimitPolicy> {
  readonly name: string;
  readonly policy: P;
  readonly headers: HeaderTable;
  /** What the limit is counted per, as the spec says; set by {@link apiLimitFromSpec} (the clients never need it). */
  readonly countedPer?: CountedPer;
}

/** The table of the three APIs' limits. */
export type ApiLimits = Readonly<Record<ApiName, ApiLimit>>;

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

const headerFields: readonly string[] = ['limit', 'remaining', 'used/limit', 'cost', 'refill-per-second'];
const countedPerValues: readonly string[] = ['client-ip', 'mall'];
const numberKeys: Readonly<Record<string, readonly (keyof RateLimitExtension)[]>> = {
  'sliding-log': ['limit', 'window-seconds'],
  'fixed-window': ['limit', 'window-seconds'],
  'leaky-bucket': ['capacity', 'drain-per-second'],
  'token-bucket': ['capacity', 'refill-interval-seconds'],
};

type Fields = Readonly<Record<string, unknown>>;
const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks that an `x-rate-limit` extension states a usable limit: a known algorithm with its numbers,
 * a usable policy, `counted-per` and a header table of known fields.
 *
 * @returns an `invalid_policy` error naming the problem, or `undefined` when the extension is usable.
 */
export function checkRateLimitExtension(extension: unknown, name: string): RateLimitError | undefined {
  const problem = (message: string) =>
    new RateLimitError('invalid_policy', `x-rate-limit of ${name}: ${message}`, {
      context: { api: name, extension: JSON.stringify(extension) ?? 'undefined' },
    });
  if (!isFields(extension)) return problem('the spec declares no x-rate-limit object');
  const needed = numberKeys[String(extension.algorithm)];
  if (needed === undefined) return problem(`unknown algorithm ${String(extension.algorithm)}`);
  const missing = needed.find((key) => typeof extension[key] !== 'number');
  if (missing !== undefined) return problem(`${missing} must be a number`);
  if (!countedPerValues.includes(String(extension['counted-per'])))
    return problem(`counted-per must be one of ${countedPerValues.join(', ')}`);
  const headers = extension.headers;
  if (!isFields(headers)) return problem('headers must map header names to fields');
  const unknown = Object.entries(headers).find(([, field]) => !headerFields.includes(String(field)));
  if (unknown !== undefined)
    return problem(`header ${unknown[0]} shows an unknown field ${String(unknown[1])}`);
  return checkPolicy(apiLimitFromExtension(extension as unknown as RateLimitExtension, name).policy);
}

/** The policy an extension states (checked by {@link checkRateLimitExtension}). */
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
 * time goes through {@link apiLimitFromSpec}, which checks first). The extension: `algorithm`
 * (`sliding-log`, `fixed-window`, `leaky-bucket`, `token-bucket`), `limit` and `window-seconds`, or
 * `capacity` with `drain-per-second` or `refill-interval-seconds`, `counted-per` and `headers`.
 */
export function apiLimitFromExtension(extension: RateLimitExtension, name: string): ApiLimit {
  return { name, policy: policyOf(extension), headers: extension.headers as HeaderTable };
}

/**
 * The {@link ApiLimit} an OpenAPI document states in its root `x-rate-limit` extension.
 *
 * @param document a bundled (or hand-modified) OpenAPI document, e.g. `loadSpec('admin').document`.
 * @param name the API's name, used to namespace store keys.
 * @throws RateLimitError `invalid_policy` when the document states no usable limit.
 */
export function apiLimitFromSpec(document: Readonly<Record<string, unknown>>, name: string): ApiLimit {
  const extension = document['x-rate-limit'];
  const problem = checkRateLimitExtension(extension, name);
  if (problem !== undefined) throw problem;
  const stated = extension as RateLimitExtension;
  return { ...apiLimitFromExtension(stated, name), countedPer: stated['counted-per'] as CountedPer };
}

/** The three APIs' limits, derived from the bundled specs at build time. */
export const apiLimits: ApiLimits = {
  collection: apiLimitFromExtension(rateLimitExtensions.collection, 'collection'),
  admin: apiLimitFromExtension(rateLimitExtensions.admin, 'admin'),
  analytics: apiLimitFromExtension(rateLimitExtensions.analytics, 'analytics'),
};

/** The limit for an API name, or a custom {@link ApiLimit} as given. */
export function resolveApiLimit(api: ApiName | ApiLimit): ApiLimit {
  return typeof api === 'string' ? apiLimits[api] : api;
}
