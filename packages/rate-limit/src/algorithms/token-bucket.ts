// Token bucket: a bucket of `capacity` tokens, full at first, gains one token every
// `refillIntervalMs` (continuously, so a token is whole `refillIntervalMs` after it was taken);
// each call takes `cost` tokens or is refused. Pure and O(1). The state is the one instant at
// which the bucket will be full again, so no fractional token count is stored and with whole-ms
// intervals every result is exact. Not a queue: refused calls are told `retryAfterMs`. The
// arithmetic is the drain meter's (drain-meter.ts): missing tokens are the debt.
import type { LimitAlgorithm, TokenBucketPolicy } from '../policy.js';
import { drainMeter } from './drain-meter.js';

/** The bucket, described by when it will be full again. */
export interface TokenBucketState {
  readonly kind: 'token-bucket';
  /** Instant (ms since the epoch) at which the bucket will be full again. */
  readonly fullAt: number;
}

/**
 * The token-bucket algorithm: `tokenBucket.decide(state, nowMs, policy, cost)` admits or refuses,
 * `peek` answers without consuming, `observe` syncs with a server's reported remaining tokens.
 */
export const tokenBucket: LimitAlgorithm<TokenBucketPolicy, TokenBucketState> = drainMeter({
  unitMs: (policy: TokenBucketPolicy) => policy.refillIntervalMs,
  paidOffAt: (state: TokenBucketState) => state.fullAt,
  stateAt: (fullAt): TokenBucketState => ({ kind: 'token-bucket', fullAt }),
});
