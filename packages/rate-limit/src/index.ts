// Public entry of @mall-api/rate-limit: algorithms (sliding log, fixed window, leaky and token
// bucket), the memory store, server limiter, client middleware, the API limit table and each
// API's limit model (its limit with its one algorithm, what a typed client schedules with). The
// Redis store is deliberately not here; import it from `@mall-api/rate-limit/redis` so clients
// that do not use Redis never load ioredis.
export {
  type AdmissionQueue,
  type AdmitOptions,
  type Admitted,
  createAdmissionQueue,
} from './admission-queue.js';
export { AlgorithmMemoryStore, type MemoryStoreOptions } from './algorithm-memory-store.js';
export { type FixedWindowState, fixedWindow } from './algorithms/fixed-window.js';
export { drainMsPerUnit, type LeakyBucketState, leakyBucket } from './algorithms/leaky-bucket.js';
export { type SlidingLogState, slidingLog } from './algorithms/sliding-log.js';
export { type TokenBucketState, tokenBucket } from './algorithms/token-bucket.js';
export {
  type ApiLimits,
  type ApiName,
  apiLimitFromSpec,
  apiLimits,
  checkRateLimitExtension,
  resolveApiLimit,
} from './api-limits.js';
export * from './client-scheduler.js';
export { type Clock, type ManualClock, manualClock, type Sleep, systemClock, systemSleep } from './clock.js';
export { RateLimitError, type RateLimitErrorCode, type RateLimitErrorContext } from './errors.js';
export { adminLimitModel } from './generated/admin-limit.js';
export { analyticsLimitModel } from './generated/analytics-limit.js';
export { collectionLimitModel } from './generated/collection-limit.js';
export * from './limit-model.js';
export { decideLimit, type LimitState, observeLimit, peekLimit, timeUntilAdmitted } from './limit-state.js';
export { MemoryStore } from './memory-store.js';
export type * from './middleware-types.js';
export { createModelScheduler } from './model-scheduler.js';
export * from './policy.js';
export * from './rate-limit-headers.js';
export * from './request-sender.js';
export { type BackoffOptions, fullJitterDelayMs, parseRetryAfter, retryDelayMs } from './retry-backoff.js';
export * from './server-limiter.js';
export type { RateLimitStore } from './store.js';
export { retryAfterSeconds, type TooManyRequestsBody, tooManyRequestsBody } from './too-many-requests.js';
export { UncountedStore } from './uncounted-store.js';
