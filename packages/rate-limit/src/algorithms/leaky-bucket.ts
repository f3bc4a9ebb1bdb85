// Leaky bucket (as a meter): each call pours `cost` units into a bucket of `capacity` that drains
// `leakPerSecond` continuously; a call that would overflow is refused. Pure and O(1). The state is
// the one instant at which the bucket will have drained empty, so no fractional level is stored and
// with a whole number of ms per unit (2 per second = 500 ms) every result is exact. Not a queue:
// refused calls are not held back, they are told `retryAfterMs`. The arithmetic is the drain
// meter's (drain-meter.ts), shared with the token bucket.
import type { LeakyBucketPolicy, LimitAlgorithm } from '../policy.js';
import { drainMeter } from './drain-meter.js';

/** The bucket, described by when it will be empty. */
export interface LeakyBucketState {
  readonly kind: 'leaky-bucket';
  /** Instant (ms since the epoch) at which the bucket will have drained empty. */
  readonly emptyAt: number;
}

/** Milliseconds the bucket takes to drain one unit (500 for 2 per second). */
export function drainMsPerUnit(policy: LeakyBucketPolicy): number {
  return 1000 / policy.leakPerSecond;
}

/**
 * The leaky-bucket algorithm: `leakyBucket.decide(state, nowMs, policy, cost)` admits or refuses,
 * `peek` answers without consuming, `observe` syncs with a server's reported level.
 */
export const leakyBucket: LimitAlgorithm<LeakyBucketPolicy, LeakyBucketState> = drainMeter({
  unitMs: drainMsPerUnit,
  paidOffAt: (state: LeakyBucketState) => state.emptyAt,
  stateAt: (emptyAt): LeakyBucketState => ({ kind: 'leaky-bucket', emptyAt }),
});
