// Token bucket: a bucket of `capacity` tokens, full at first, gains one token every
// `refillIntervalMs` (continuously, so a token is whole `refillIntervalMs` after it was taken);
// each call takes `cost` tokens or is refused. Pure and O(1). The state is the one instant at
// which the bucket will be full again, so no fractional token count is stored and with whole-ms
// intervals every result is exact. Not a queue: refused calls are told `retryAfterMs`.
import type { Decision, LimitAlgorithm, Outcome, TokenBucketPolicy } from '../policy.js';
import { assertCost } from '../policy.js';

/** The bucket, described by when it will be full again. */
export interface TokenBucketState {
  readonly kind: 'token-bucket';
  /** Instant (ms since the epoch) at which the bucket will be full again. */
  readonly fullAt: number;
}

/** Tolerance for non-integral intervals, far below a millisecond. */
const EPSILON = 1e-9;

/** Milliseconds of refill the bucket is missing at `nowMs` (missing tokens times the interval). */
function deficitMs(state: TokenBucketState | undefined, nowMs: number): number {
  return state === undefined ? 0 : Math.max(0, state.fullAt - nowMs);
}

function describe(
  deficit: number,
  policy: TokenBucketPolicy,
  allowed: boolean,
  retryAfterMs: number,
): Decision {
  // Tokens missing, rounded up, so `remaining` is the whole tokens left (rounded down).
  const used = Math.min(policy.capacity, Math.ceil(deficit / policy.refillIntervalMs - EPSILON));
  return {
    allowed,
    limit: policy.capacity,
    used,
    remaining: policy.capacity - used,
    retryAfterMs,
    resetMs: deficit,
  };
}

function peek(
  state: TokenBucketState | undefined,
  nowMs: number,
  policy: TokenBucketPolicy,
  cost = 1,
): Decision {
  assertCost(cost, policy.capacity);
  const deficit = deficitMs(state, nowMs);
  // Taking `cost` tokens needs the deficit after it to stay within the whole bucket.
  const shortMs = deficit + cost * policy.refillIntervalMs - policy.capacity * policy.refillIntervalMs;
  const fits = shortMs <= EPSILON;
  return describe(deficit, policy, fits, fits ? 0 : shortMs);
}

function decide(
  state: TokenBucketState | undefined,
  nowMs: number,
  policy: TokenBucketPolicy,
  cost = 1,
): Outcome<TokenBucketState> {
  const decision = peek(state, nowMs, policy, cost);
  const current: TokenBucketState = state ?? { kind: 'token-bucket', fullAt: nowMs };
  if (!decision.allowed) return { state: current, decision };
  const after = deficitMs(state, nowMs) + cost * policy.refillIntervalMs;
  return {
    state: { kind: 'token-bucket', fullAt: nowMs + after },
    decision: describe(after, policy, true, 0),
  };
}

function observe(
  state: TokenBucketState | undefined,
  nowMs: number,
  policy: TokenBucketPolicy,
  remaining: number,
): TokenBucketState {
  const reportedTokens = Math.min(policy.capacity, Math.max(0, remaining));
  const reportedDeficit = (policy.capacity - reportedTokens) * policy.refillIntervalMs;
  if (state !== undefined && deficitMs(state, nowMs) >= reportedDeficit) return state;
  return { kind: 'token-bucket', fullAt: nowMs + reportedDeficit };
}

/**
 * The token-bucket algorithm: `tokenBucket.decide(state, nowMs, policy, cost)` admits or refuses,
 * `peek` answers without consuming, `observe` syncs with a server's reported remaining tokens.
 */
export const tokenBucket: LimitAlgorithm<TokenBucketPolicy, TokenBucketState> = { decide, peek, observe };
