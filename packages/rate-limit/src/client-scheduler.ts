// Client-side rate limiting for any limit: `createRateLimitMiddleware` takes one of the mall APIs by
// name, a custom API limit or a bare policy, checks the policy, and schedules with all four
// algorithms through `createModelScheduler` (model-scheduler.ts). A typed client hands its API's
// model to `createModelScheduler` directly. Not for servers; see `server-limiter.ts`.
import { type ApiLimit, type ApiName, resolveApiLimit } from './api-limits.js';
import { anyLimitAlgorithm } from './limit-state.js';
import type {
  FailureHandlingOptions,
  RateLimitMiddleware,
  RateLimitMiddlewareCommonOptions,
} from './middleware-types.js';
import { createModelScheduler } from './model-scheduler.js';
import type { LimitPolicy } from './policy.js';
import { checkPolicy } from './policy.js';

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
  return { ...createModelScheduler({ ...api, algorithm: anyLimitAlgorithm }, options), api };
}
