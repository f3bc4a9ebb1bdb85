// Leaky bucket (as a meter): each call pours `cost` units into a bucket of `capacity` that drains
// `leakPerSecond` continuously; a call that would overflow is refused. Pure and O(1). The state is
// the one instant at which the bucket will have drained empty, so no fractional level is stored and
// with a whole number of ms per unit (2 per second = 500 ms) every result is exact. Not a queue:
// refused calls are not held back, they are told `retryAfterMs`.
import type { Decision, LeakyBucketPolicy, LimitAlgorithm, Outcome } from '../policy.js';
import { assertCost } from '../policy.js';

/** The bucket, described by when it will be empty. */
export interface LeakyBucketState {
  readonly kind: 'leaky-bucket';
  /** Instant (ms since the epoch) at which the bucket will have drained empty. */
  readonly emptyAt: number;
}

/** Tolerance for non-integral ms-per-unit rates, far below a millisecond. */
const EPSILON = 1e-9;

/** Milliseconds the bucket takes to drain one unit (500 for 2 per second). */
export function drainMsPerUnit(policy: LeakyBucketPolicy): number {
  return 1000 / policy.leakPerSecond;
}

/** Milliseconds of draining the bucket holds at `nowMs` (its level times `drainMsPerUnit`). */
function backlogMs(state: LeakyBucketState | undefined, nowMs: number): number {
  return state === undefined ? 0 : Math.max(0, state.emptyAt - nowMs);
}

function describe(
  backlog: number,
  policy: LeakyBucketPolicy,
  allowed: boolean,
  retryAfterMs: number,
): Decision {
  const used = Math.min(policy.capacity, Math.ceil(backlog / drainMsPerUnit(policy) - EPSILON));
  return {
    allowed,
    limit: policy.capacity,
    used,
    remaining: policy.capacity - used,
    retryAfterMs,
    resetMs: backlog,
  };
}

/** Backlog after pouring `cost` in, and how far (ms) that overflows the bucket (<= 0 if it fits). */
function pour(
  backlog: number,
  policy: LeakyBucketPolicy,
  cost: number,
): { after: number; overflowMs: number } {
  const unit = drainMsPerUnit(policy);
  const after = backlog + cost * unit;
  return { after, overflowMs: after - policy.capacity * unit };
}

function peek(
  state: LeakyBucketState | undefined,
  nowMs: number,
  policy: LeakyBucketPolicy,
  cost = 1,
): Decision {
  assertCost(cost, policy.capacity);
  const backlog = backlogMs(state, nowMs);
  const { overflowMs } = pour(backlog, policy, cost);
  const fits = overflowMs <= EPSILON;
  return describe(backlog, policy, fits, fits ? 0 : overflowMs);
}

function decide(
  state: LeakyBucketState | undefined,
  nowMs: number,
  policy: LeakyBucketPolicy,
  cost = 1,
): Outcome<LeakyBucketState> {
  const decision = peek(state, nowMs, policy, cost);
  const current: LeakyBucketState = state ?? { kind: 'leaky-bucket', emptyAt: nowMs };
  if (!decision.allowed) return { state: current, decision };
  const { after } = pour(backlogMs(state, nowMs), policy, cost);
  return {
    state: { kind: 'leaky-bucket', emptyAt: nowMs + after },
    decision: describe(after, policy, true, 0),
  };
}

function observe(
  state: LeakyBucketState | undefined,
  nowMs: number,
  policy: LeakyBucketPolicy,
  remaining: number,
): LeakyBucketState {
  const reportedUse = Math.min(policy.capacity, Math.max(0, policy.capacity - remaining));
  const reportedBacklog = reportedUse * drainMsPerUnit(policy);
  if (state !== undefined && backlogMs(state, nowMs) >= reportedBacklog) return state;
  return { kind: 'leaky-bucket', emptyAt: nowMs + reportedBacklog };
}

/**
 * The leaky-bucket algorithm: `leakyBucket.decide(state, nowMs, policy, cost)` admits or refuses,
 * `peek` answers without consuming, `observe` syncs with a server's reported level.
 */
export const leakyBucket: LimitAlgorithm<LeakyBucketPolicy, LeakyBucketState> = { decide, peek, observe };
