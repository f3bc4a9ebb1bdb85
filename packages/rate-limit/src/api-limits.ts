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
import type { HeaderField, HeaderTable } from './rate-limit-headers.js';

/** Names of the mall APIs with a rate limit. */
export type ApiName = 'collection' | 'admin' | 'analytics';

/** What a limit is counted per: the caller's IP address, or the mall the call acts on. */
export type CountedPer = 'client-ip' | 'mall';

/** One API's rate limit: a name (used to namespace store keys), its policy and its headers. */
export interface ApiLimit<P extends LimitPolicy = LimitPolicy> {
  readonly name: string;
  readonly policy: P;
  readonly headers: HeaderTable;
  /** What the limit is counted per, when the spec says (every mall API's spec does). */
  readonly countedPer?: CountedPer;
}

/** The table of the three APIs' limits. */
export type ApiLimits = Readonly<Record<ApiName, ApiLimit>>;

const headerFields: readonly HeaderField[] = [
  'limit',
  'remaining',
  'used/limit',
  'cost',
  'refill-per-second',
];
const countedPerValues: readonly CountedPer[] = ['client-ip', 'mall'];

type Fields = Readonly<Record<string, unknown>>;
const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(name: string, message: string, extension: unknown): RateLimitError {
  return new RateLimitError('invalid_policy', `x-rate-limit of ${name}: ${message}`, {
    context: { api: name, extension: JSON.stringify(extension) },
  });
}

/** The policy an `x-rate-limit` extension states. */
function policyOf(name: string, extension: Fields): LimitPolicy {
  const seconds = (key: string): number => {
    const value = extension[key];
    if (typeof value !== 'number') throw invalid(name, `${key} must be a number`, extension);
    return value;
  };
  switch (extension.algorithm) {
    case 'sliding-log':
    case 'fixed-window':
      return {
        kind: extension.algorithm,
        limit: seconds('limit'),
        windowMs: seconds('window-seconds') * 1000,
      };
    case 'leaky-bucket':
      return {
        kind: 'leaky-bucket',
        capacity: seconds('capacity'),
        leakPerSecond: seconds('drain-per-second'),
      };
    case 'token-bucket':
      return {
        kind: 'token-bucket',
        capacity: seconds('capacity'),
        refillIntervalMs: seconds('refill-interval-seconds') * 1000,
      };
    default:
      throw invalid(name, `unknown algorithm ${String(extension.algorithm)}`, extension);
  }
}

/** The header table an `x-rate-limit` extension states (`headers`: name -> what it shows). */
function headersOf(name: string, extension: Fields): HeaderTable {
  const headers = extension.headers;
  if (!isFields(headers)) throw invalid(name, 'headers must map header names to fields', extension);
  for (const [header, field] of Object.entries(headers)) {
    if (!headerFields.includes(field as HeaderField))
      throw invalid(name, `header ${header} shows an unknown field ${String(field)}`, extension);
  }
  return headers as HeaderTable;
}

/**
 * Turns an API's `x-rate-limit` extension into its {@link ApiLimit}. The extension is the one
 * documented in specs/README.md ("Extensions"): `algorithm` (`sliding-log`, `fixed-window`,
 * `leaky-bucket`, `token-bucket`), `limit` and `window-seconds`, or `capacity` with
 * `drain-per-second` or `refill-interval-seconds`, `counted-per` and `headers`.
 *
 * @throws RateLimitError `invalid_policy` when the extension is absent or states no usable policy.
 */
export function apiLimitFromExtension(extension: unknown, name: string): ApiLimit {
  if (!isFields(extension)) throw invalid(name, 'the spec declares no x-rate-limit object', extension);
  const policy = policyOf(name, extension);
  const unusable = checkPolicy(policy);
  if (unusable !== undefined) throw unusable;
  const countedPer = extension['counted-per'];
  if (!countedPerValues.includes(countedPer as CountedPer))
    throw invalid(name, `counted-per must be one of ${countedPerValues.join(', ')}`, extension);
  return { name, policy, headers: headersOf(name, extension), countedPer: countedPer as CountedPer };
}

/**
 * The {@link ApiLimit} an OpenAPI document states in its root `x-rate-limit` extension.
 *
 * @param document a bundled (or hand-modified) OpenAPI document, e.g. `loadSpec('admin').document`.
 * @param name the API's name, used to namespace store keys.
 * @throws RateLimitError `invalid_policy` when the document states no usable limit.
 */
export function apiLimitFromSpec(document: Readonly<Record<string, unknown>>, name: string): ApiLimit {
  return apiLimitFromExtension(document['x-rate-limit'], name);
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
