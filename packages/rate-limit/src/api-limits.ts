// The rate limits of the three mall APIs, derived from the specs: each API's root `x-rate-limit`
// extension (algorithm, limit or capacity, window, drain or refill rate, what it is counted per,
// the headers it reports) becomes an `ApiLimit`. `apiLimitFromSpec` checks and reads a loaded
// document (the mock does, at run time); `apiLimits` applies the same function to the extensions
// copied from the bundles at build time (src/generated/<api>-limit.ts), so clients never load a
// spec. No limit number lives here. Not for which key a limit applies to: `countedPer` says what,
// the caller builds the key; not for one API alone (a client takes its API's `ApiLimitModel`).
import { RateLimitError } from './errors.js';
import { rateLimits } from './generated/rate-limits.js';
import {
  type ApiLimit,
  apiLimitFromExtension,
  type CountedPer,
  type RateLimitExtension,
} from './limit-model.js';
import { checkPolicy } from './policy.js';

export type { ApiLimit } from './limit-model.js';

/** Names of the mall APIs with a rate limit (the APIs of the specs, as generated from them). */
export type ApiName = keyof typeof rateLimits;

/** The table of the three APIs' limits. */
export type ApiLimits = Readonly<Record<ApiName, ApiLimit>>;

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
export const apiLimits = Object.fromEntries(
  Object.entries(rateLimits).map(([api, extension]) => [api, apiLimitFromExtension(extension, api)]),
) as ApiLimits;

/** The limit for an API name, or a custom {@link ApiLimit} as given. */
export function resolveApiLimit(api: ApiName | ApiLimit): ApiLimit {
  return typeof api === 'string' ? apiLimits[api] : api;
}
