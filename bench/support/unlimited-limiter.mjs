// Benchmark support: a server limiter for one API whose policy is raised so far that it never
// refuses, so a benchmark measures the mock and not the rate limit. Keeps the API's headers.
import * as thisCheckout from '@mall-api/rate-limit';

/**
 * A limiter for `api` that admits a billion calls a minute.
 * @param {import('@mall-api/rate-limit').ApiName} api
 * @param {typeof import('@mall-api/rate-limit')} [rateLimit] the rate-limit package to build it
 *   with: this checkout's by default, another checkout's when serving that one as a baseline
 */
export function unlimitedLimiter(api, rateLimit = thisCheckout) {
  return rateLimit.createServerLimiter({
    api: {
      ...rateLimit.apiLimits[api],
      policy: { kind: 'fixed-window', limit: 1_000_000_000, windowMs: 60_000 },
    },
  });
}
