// Runs the right algorithm for any policy: the union of the four algorithm states, and `decide`,
// `peek`, `observe` and `timeUntilAdmitted` that pick the algorithm by `policy.kind` through one
// switch, together `anyLimitAlgorithm` (the `MemoryStore`'s). A saved state of another kind than the
// policy counts as absent. A client of one API runs its model's algorithm alone and never loads
// this module. Not for storage or time keeping.
import { type FixedWindowState, fixedWindow } from './algorithms/fixed-window.js';
import { type LeakyBucketState, leakyBucket } from './algorithms/leaky-bucket.js';
import { type SlidingLogState, slidingLog } from './algorithms/sliding-log.js';
import { type TokenBucketState, tokenBucket } from './algorithms/token-bucket.js';
import type { Decision, LimitAlgorithm, LimitPolicy, Outcome } from './policy.js';

/** The saved state of any of the four algorithms; `kind` matches the policy's. */
export type LimitState = SlidingLogState | FixedWindowState | LeakyBucketState | TokenBucketState;

/** What an entry point does with the algorithm of the policy's kind, its policy and its saved state. */
type AlgorithmUse<R> = <P extends LimitPolicy, S extends LimitState>(
  algorithm: LimitAlgorithm<P, S>,
  state: S | undefined,
  policy: P,
) => R;

/** Runs `use` with the algorithm of the policy's kind, the state counting only if it is of that kind. */
function withAlgorithm<R>(state: LimitState | undefined, policy: LimitPolicy, use: AlgorithmUse<R>): R {
  switch (policy.kind) {
    case 'sliding-log':
      return use(slidingLog, state?.kind === policy.kind ? state : undefined, policy);
    case 'fixed-window':
      return use(fixedWindow, state?.kind === policy.kind ? state : undefined, policy);
    case 'leaky-bucket':
      return use(leakyBucket, state?.kind === policy.kind ? state : undefined, policy);
    case 'token-bucket':
      return use(tokenBucket, state?.kind === policy.kind ? state : undefined, policy);
  }
}

/** Admits or refuses a call of `cost` under `policy`; see {@link LimitAlgorithm.decide}. */
export function decideLimit(
  state: LimitState | undefined,
  nowMs: number,
  policy: LimitPolicy,
  cost = 1,
): Outcome<LimitState> {
  return withAlgorithm<Outcome<LimitState>>(state, policy, (algorithm, own, ownPolicy) =>
    algorithm.decide(own, nowMs, ownPolicy, cost),
  );
}

/** Answers without consuming whether a call of `cost` would be admitted now; see {@link LimitAlgorithm.peek}. */
export function peekLimit(
  state: LimitState | undefined,
  nowMs: number,
  policy: LimitPolicy,
  cost = 1,
): Decision {
  return withAlgorithm<Decision>(state, policy, (algorithm, own, ownPolicy) =>
    algorithm.peek(own, nowMs, ownPolicy, cost),
  );
}

/** Raises usage so that at most `remaining` units remain; see {@link LimitAlgorithm.observe}. */
export function observeLimit(
  state: LimitState | undefined,
  nowMs: number,
  policy: LimitPolicy,
  remaining: number,
): LimitState {
  return withAlgorithm<LimitState>(state, policy, (algorithm, own, ownPolicy) =>
    algorithm.observe(own, nowMs, ownPolicy, remaining),
  );
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
