// Runs the right algorithm for any policy: the union of the four algorithm states, and `decide`,
// `peek`, `observe` and `timeUntilAdmitted` that pick the algorithm by `policy.kind`, together
// `anyLimitAlgorithm`, the algorithm of the `MemoryStore` (any policy, as a server needs). A saved
// state of another kind than the policy (the policy of a key changed) counts as absent. A client of
// one API runs that API's algorithm alone (its `ApiLimitModel`) and never loads this module. Not
// for storage or time keeping. Each entry point switches on the kind rather than looking the
// algorithm up in a table: one call site per algorithm stays monomorphic, and a shared table lookup
// cost 30-40 % of the pure decision rate (bench/rate-limit-decisions.mjs).
import { type FixedWindowState, fixedWindow } from './algorithms/fixed-window.js';
import { type LeakyBucketState, leakyBucket } from './algorithms/leaky-bucket.js';
import { type SlidingLogState, slidingLog } from './algorithms/sliding-log.js';
import { type TokenBucketState, tokenBucket } from './algorithms/token-bucket.js';
import type { Decision, LimitAlgorithm, LimitPolicy, Outcome } from './policy.js';

/** The saved state of any of the four algorithms; `kind` matches the policy's. */
export type LimitState = SlidingLogState | FixedWindowState | LeakyBucketState | TokenBucketState;

/** Admits or refuses a call of `cost` under `policy`; see {@link LimitAlgorithm.decide}. */
export function decideLimit(
  state: LimitState | undefined,
  nowMs: number,
  policy: LimitPolicy,
  cost = 1,
): Outcome<LimitState> {
  switch (policy.kind) {
    case 'sliding-log':
      return slidingLog.decide(state?.kind === policy.kind ? state : undefined, nowMs, policy, cost);
    case 'fixed-window':
      return fixedWindow.decide(state?.kind === policy.kind ? state : undefined, nowMs, policy, cost);
    case 'leaky-bucket':
      return leakyBucket.decide(state?.kind === policy.kind ? state : undefined, nowMs, policy, cost);
    case 'token-bucket':
      return tokenBucket.decide(state?.kind === policy.kind ? state : undefined, nowMs, policy, cost);
  }
}

/** Answers without consuming whether a call of `cost` would be admitted now; see {@link LimitAlgorithm.peek}. */
export function peekLimit(
  state: LimitState | undefined,
  nowMs: number,
  policy: LimitPolicy,
  cost = 1,
): Decision {
  switch (policy.kind) {
    case 'sliding-log':
      return slidingLog.peek(state?.kind === policy.kind ? state : undefined, nowMs, policy, cost);
    case 'fixed-window':
      return fixedWindow.peek(state?.kind === policy.kind ? state : undefined, nowMs, policy, cost);
    case 'leaky-bucket':
      return leakyBucket.peek(state?.kind === policy.kind ? state : undefined, nowMs, policy, cost);
    case 'token-bucket':
      return tokenBucket.peek(state?.kind === policy.kind ? state : undefined, nowMs, policy, cost);
  }
}

/** Raises usage so that at most `remaining` units remain; see {@link LimitAlgorithm.observe}. */
export function observeLimit(
  state: LimitState | undefined,
  nowMs: number,
  policy: LimitPolicy,
  remaining: number,
): LimitState {
  switch (policy.kind) {
    case 'sliding-log':
      return slidingLog.observe(state?.kind === policy.kind ? state : undefined, nowMs, policy, remaining);
    case 'fixed-window':
      return fixedWindow.observe(state?.kind === policy.kind ? state : undefined, nowMs, policy, remaining);
    case 'leaky-bucket':
      return leakyBucket.observe(state?.kind === policy.kind ? state : undefined, nowMs, policy, remaining);
    case 'token-bucket':
      return tokenBucket.observe(state?.kind === policy.kind ? state : undefined, nowMs, policy, remaining);
  }
}

/**
 * How long (ms) a caller must wait before a call of `cost` would be admitted, without consuming
 * anything: 0 when it would be admitted now. Clients use it to schedule.
 */
export function timeUntilAdmitted(
  state: LimitState | undefined,
  nowMs: number,
  policy: LimitPolicy,
  cost = 1,
): number {
  return peekLimit(state, nowMs, policy, cost).retryAfterMs;
}

/** The four algorithms as one, each policy run by the algorithm of its kind. */
export const anyLimitAlgorithm: LimitAlgorithm<LimitPolicy, LimitState> = {
  decide: decideLimit,
  peek: peekLimit,
  observe: observeLimit,
};
