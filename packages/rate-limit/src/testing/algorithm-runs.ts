// Test helpers shared by the algorithm tests: turn generated gaps into timed calls, replay calls
// through an algorithm as its decisions' numbers (to compare with a reference model), and hammer
// an algorithm with unit calls at a fixed step. Not part of the build.
import fc from 'fast-check';
import type { LimitAlgorithm, LimitPolicy } from '../policy.js';

/** A call at an instant (ms since the epoch) taking `cost` units. */
export interface TimedCall {
  readonly at: number;
  readonly cost: number;
}

/** Random calls as gaps (ms, up to `maxGapMs`) and raw costs, for {@link timedCalls}. */
export const callGaps = (maxGapMs: number, maxLength: number) =>
  fc.array(fc.record({ gap: fc.integer({ min: 0, max: maxGapMs }), cost: fc.integer({ min: 1, max: 8 }) }), {
    minLength: 1,
    maxLength,
  });

/** Calls at `origin` plus the running sum of the gaps, each cost folded into 1..`maxCost`. */
export function timedCalls(
  origin: number,
  raw: readonly { gap: number; cost: number }[],
  maxCost: number,
): TimedCall[] {
  let at = origin;
  return raw.map(({ gap, cost }) => {
    at += gap;
    return { at, cost: 1 + ((cost - 1) % maxCost) };
  });
}

/** Each call decided in turn by `algorithm` under `policy`, as the numbers of its decision. */
export function replay<P extends LimitPolicy, S>(
  algorithm: LimitAlgorithm<P, S>,
  policy: P,
  calls: readonly TimedCall[],
) {
  let state: S | undefined;
  return calls.map((call) => {
    const outcome = algorithm.decide(state, call.at, policy, call.cost);
    state = outcome.state;
    const { allowed, used, remaining, retryAfterMs, resetMs } = outcome.decision;
    return { allowed, used, remaining, retryAfterMs, resetMs };
  });
}

/** Unit calls every `stepMs` from `from` up to `to`: the state after them and when they were admitted. */
export function hammer<P extends LimitPolicy, S>(
  algorithm: LimitAlgorithm<P, S>,
  policy: P,
  state: S | undefined,
  from: number,
  to: number,
  stepMs: number,
) {
  let current = state;
  const admittedAt: number[] = [];
  for (let at = from; at < to; at += stepMs) {
    const outcome = algorithm.decide(current, at, policy);
    current = outcome.state;
    if (outcome.decision.allowed) admittedAt.push(at);
  }
  return { state: current, admittedAt };
}
