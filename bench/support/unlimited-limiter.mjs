// Benchmark support: a server limiter for one API whose policy is raised so far that it never
// refuses, so a benchmark measures the mock and not the rate limit. Keeps the API's headers.
import { apiLimits, createServerLimiter } from '@mall-api/rate-limit';

/**
 * A limiter for `api` that admits a billion calls a minute.
 * @param {import('@mall-api/rate-limit').ApiName} api
 */
export function unlimitedLimiter(api) {
  return createServerLimiter({
    api: { ...apiLimits[api], policy: { kind: 'fixed-window', limit: 1_000_000_000, windowMs: 60_000 } },
  });
}
