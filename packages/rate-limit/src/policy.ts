// The shared vocabulary of every limiter: the four policies (sliding log, fixed window, leaky
// bucket, token bucket), the decision a limiter returns, the shape the four algorithms share, what
// a policy's limit and refill rate are, and the checks that a policy and a cost make sense. Types,
// those two readings and checks only; the algorithms live in `algorithms/`, and what each mall API
// uses lives in `api-limits.ts`.
import { RateLimitError } from './errors.js';

/** At most `limit` units per window; windows are aligned to multiples of `windowMs` since the epoch. */
export interface FixedWindowPolicy {
  readonly kind: 'fixed-window';
  /** Units admitted per window. */
  readonly limit: number;
  /** Window length in milliseconds. */
  readonly windowMs: number;
}

/**
 * At most `limit` units in ANY span of `windowMs` (a rolling window): each admitted unit is logged
 * and counts until `windowMs` after it was admitted. Stricter than a fixed window, which lets twice
 * the limit through across a window boundary.
 */
export interface SlidingLogPolicy {
  readonly kind: 'sliding-log';
  /** Units admitted in any span of `windowMs`. */
  readonly limit: number;
  /** Length of the rolling window in milliseconds. */
  readonly windowMs: number;
}

/** Each call pours `cost` units into a bucket holding `capacity`, which drains continuously. */
export interface LeakyBucketPolicy {
  readonly kind: 'leaky-bucket';
  /** Units the bucket holds; a call that would overflow it is refused. */
  readonly capacity: number;
  /** Units drained per second, continuously. */
  readonly leakPerSecond: number;
}

/** Each call takes `cost` tokens from a bucket of `capacity` (full at first), refilled continuously. */
export interface TokenBucketPolicy {
  readonly kind: 'token-bucket';
  /** Burst capacity: tokens the bucket holds when full. */
  readonly capacity: number;
  /** Milliseconds it takes to add one token. */
  readonly refillIntervalMs: number;
}

/** Any rate-limit policy; `kind` selects the algorithm. */
export type LimitPolicy = SlidingLogPolicy | FixedWindowPolicy | LeakyBucketPolicy | TokenBucketPolicy;

/** The answer of a limiter for one call, and the limiter's state after it. */
export interface Decision {
  /** Whether the call is admitted (and its cost consumed). */
  readonly allowed: boolean;
  /** The policy's limit or capacity. */
  readonly limit: number;
  /** Units that could still be admitted right now (integer, rounded down). */
  readonly remaining: number;
  /** Units in use: calls in this window, or the bucket level (integer, rounded up); `limit - remaining`. */
  readonly used: number;
  /** 0 when allowed; otherwise the exact time in ms until the same call would be admitted. */
  readonly retryAfterMs: number;
  /** Time in ms until the limiter is back to its initial state (window over, bucket drained or full). */
  readonly resetMs: number;
}

/** What an algorithm returns for a call: the new state and the decision. */
export interface Outcome<S> {
  readonly state: S;
  readonly decision: Decision;
}

/**
 * The shape every algorithm has. Each function is pure and O(1) (the sliding log: O(limit)); time is passed in (ms since the
 * epoch), and an absent state means "never used" (which is also the state once `resetMs` passed).
 */
export interface LimitAlgorithm<P extends LimitPolicy, S> {
  /** Admits the call and consumes `cost` units if it fits; a refused call changes nothing. */
  decide(state: S | undefined, nowMs: number, policy: P, cost?: number): Outcome<S>;
  /**
   * Tells, without consuming, whether a call of `cost` would be admitted now and otherwise how long
   * to wait (`retryAfterMs`). `used` and `remaining` describe the current state.
   */
  peek(state: S | undefined, nowMs: number, policy: P, cost?: number): Decision;
  /**
   * Brings the state in step with a server that reports only `remaining` units left: usage is
   * raised so that at most `remaining` remain, never lowered.
   */
  observe(state: S | undefined, nowMs: number, policy: P, remaining: number): S;
}

/** The policy's limit (sliding log, fixed window) or capacity (buckets). */
export function policyLimit(policy: LimitPolicy): number {
  return 'limit' in policy ? policy.limit : policy.capacity;
}

/** Units the policy gives back per second on average (refill or drain rate; limit per window). */
export function refillPerSecond(policy: LimitPolicy): number {
  switch (policy.kind) {
    case 'sliding-log':
    case 'fixed-window':
      return (policy.limit * 1000) / policy.windowMs;
    case 'leaky-bucket':
      return policy.leakPerSecond;
    case 'token-bucket':
      return 1000 / policy.refillIntervalMs;
  }
}

const isPositive = (value: number): boolean => Number.isFinite(value) && value > 0;

/**
 * Checks that a policy is usable: a positive integer limit or capacity and a positive, finite
 * window, drain rate or refill interval.
 *
 * @returns an `invalid_policy` error, or `undefined` when the policy is valid.
 */
export function checkPolicy(policy: LimitPolicy): RateLimitError | undefined {
  const limit = policyLimit(policy);
  const rate =
    'windowMs' in policy
      ? policy.windowMs
      : policy.kind === 'leaky-bucket'
        ? policy.leakPerSecond
        : policy.refillIntervalMs;
  if (Number.isInteger(limit) && limit > 0 && isPositive(rate)) return undefined;
  return new RateLimitError(
    'invalid_policy',
    `The ${policy.kind} policy needs a positive integer limit and rate.`,
    {
      context: { kind: policy.kind, limit, rate },
    },
  );
}

/**
 * Throws an `invalid_cost` error unless `0 <= cost <= limit`: a call costing more than the whole
 * limit could never be admitted, so it is a programming error rather than a refusal.
 */
export function assertCost(cost: number, limit: number): void {
  if (Number.isFinite(cost) && cost >= 0 && cost <= limit) return;
  throw new RateLimitError('invalid_cost', `A call may cost between 0 and ${limit} units, not ${cost}.`, {
    context: { cost, limit },
  });
}
