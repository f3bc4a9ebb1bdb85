// Sliding log: at most `limit` units in ANY span of `windowMs`. Every admitted unit is logged with
// its instant and counts until `windowMs` after it (the window is half-open: a unit admitted at t
// counts at t + windowMs - 1 and no longer at t + windowMs). Pure; O(limit) per call, since the log
// never holds more than `limit` live entries. The collection API uses it for "the 41st call within a
// minute gets 429": unlike epoch-aligned fixed windows, no 60 s span ever admits 80 calls. The
// Redis script (redis-script.ts) mirrors it operation for operation.
import type { Decision, LimitAlgorithm, SlidingLogPolicy } from '../policy.js';
import { assertCost } from '../policy.js';

/** The log of admitted units that still count. */
export interface SlidingLogState {
  readonly kind: 'sliding-log';
  /** Instants (ms since the epoch) at which units were admitted, ascending, one entry per unit. */
  readonly admittedAt: readonly number[];
}

/** The entries that still count at `nowMs` (an entry from a clock that stepped back is kept). */
function liveEntries(state: SlidingLogState | undefined, nowMs: number, policy: SlidingLogPolicy): number[] {
  return state === undefined ? [] : state.admittedAt.filter((at) => at + policy.windowMs > nowMs);
}

function describe(
  log: readonly number[],
  nowMs: number,
  policy: SlidingLogPolicy,
  allowed: boolean,
  retryAfterMs: number,
): Decision {
  const used = Math.min(log.length, policy.limit);
  // Live entries all count beyond `nowMs`, so the newest one's expiry is in the future.
  const newest = log.at(-1);
  return {
    allowed,
    limit: policy.limit,
    used,
    remaining: policy.limit - used,
    retryAfterMs,
    resetMs: newest === undefined ? 0 : newest + policy.windowMs - nowMs,
  };
}

/** How long until `cost` more units fit: until the entry that must expire first has expired. */
function waitFor(log: readonly number[], nowMs: number, policy: SlidingLogPolicy, cost: number): number {
  const excess = log.length + cost - policy.limit;
  if (excess <= 0) return 0;
  return (log[excess - 1] as number) + policy.windowMs - nowMs;
}

/** The log with `count` entries at `nowMs` added, kept ascending. */
function withEntries(log: readonly number[], nowMs: number, count: number): number[] {
  return [...log, ...Array(count).fill(nowMs)].sort((a, b) => a - b);
}

/**
 * The sliding-log algorithm: `slidingLog.decide(state, nowMs, policy, cost)` admits or refuses,
 * `peek` answers without consuming, `observe` syncs with a server's reported remaining budget.
 */
export const slidingLog: LimitAlgorithm<SlidingLogPolicy, SlidingLogState> = {
  peek(state, nowMs, policy, cost = 1) {
    assertCost(cost, policy.limit);
    const log = liveEntries(state, nowMs, policy);
    const wait = waitFor(log, nowMs, policy, cost);
    return describe(log, nowMs, policy, wait === 0, wait);
  },
  decide(state, nowMs, policy, cost = 1) {
    const decision = slidingLog.peek(state, nowMs, policy, cost);
    const log = liveEntries(state, nowMs, policy);
    const next = decision.allowed ? withEntries(log, nowMs, cost) : log;
    return {
      state: { kind: 'sliding-log', admittedAt: next },
      decision: decision.allowed ? describe(next, nowMs, policy, true, 0) : decision,
    };
  },
  observe(state, nowMs, policy, remaining) {
    const log = liveEntries(state, nowMs, policy);
    const reportedUse = Math.min(policy.limit, Math.max(0, policy.limit - remaining));
    // Units the server counted and we did not are logged now: they expire last, the safe guess.
    const missing = reportedUse - log.length;
    return { kind: 'sliding-log', admittedAt: missing > 0 ? withEntries(log, nowMs, missing) : log };
  },
};
