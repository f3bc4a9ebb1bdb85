// What the leaky bucket and the token bucket share: both are a debt of milliseconds that pays
// itself off at one millisecond per millisecond, where each unit a call takes adds `unitMs` and the
// debt may hold at most `capacity` units (the leaky bucket's backlog, drained at `leakPerSecond`;
// the token bucket's missing tokens, refilled every `refillIntervalMs`; the Redis script does
// the same). The state is the one instant the debt is paid off, so no fractional
// level is stored, and with a whole number of ms per unit every result is exact. Pure and O(1).
import type { Decision, LeakyBucketPolicy, LimitAlgorithm, Outcome, TokenBucketPolicy } from '../policy.js';
import { assertCost } from '../policy.js';

/** Tolerance for non-integral ms-per-unit rates, far below a millisecond. */
const EPSILON = 1e-9;

/** How one algorithm maps onto the meter: its ms per unit and its state's paid-off instant. */
export interface MeterShape<P extends LeakyBucketPolicy | TokenBucketPolicy, S> {
  /** Milliseconds one unit adds to the debt (and takes to pay off). */
  unitMs(policy: P): number;
  /** The instant (ms since the epoch) at which the state's debt is paid off. */
  paidOffAt(state: S): number;
  /** The state whose debt is paid off at `instant`. */
  stateAt(instant: number): S;
}

/** The algorithm of a meter shaped by `shape`. */
export function drainMeter<P extends LeakyBucketPolicy | TokenBucketPolicy, S>(
  shape: MeterShape<P, S>,
): LimitAlgorithm<P, S> {
  const debtMs = (state: S | undefined, nowMs: number) =>
    state === undefined ? 0 : Math.max(0, shape.paidOffAt(state) - nowMs);

  const describe = (
    debt: number,
    unit: number,
    policy: P,
    allowed: boolean,
    retryAfterMs: number,
  ): Decision => {
    // Units taken, rounded up, so `remaining` is the whole units left (rounded down).
    const used = Math.min(policy.capacity, Math.ceil(debt / unit - EPSILON));
    return {
      allowed,
      limit: policy.capacity,
      used,
      remaining: policy.capacity - used,
      retryAfterMs,
      resetMs: debt,
    };
  };

  const peek = (state: S | undefined, nowMs: number, policy: P, cost = 1): Decision => {
    assertCost(cost, policy.capacity);
    const debt = debtMs(state, nowMs);
    const unit = shape.unitMs(policy);
    // Taking `cost` units needs the debt after it to stay within the whole capacity.
    const overflowMs = debt + cost * unit - policy.capacity * unit;
    const fits = overflowMs <= EPSILON;
    return describe(debt, unit, policy, fits, fits ? 0 : overflowMs);
  };

  return {
    peek,
    decide(state, nowMs, policy, cost = 1): Outcome<S> {
      const decision = peek(state, nowMs, policy, cost);
      if (!decision.allowed) return { state: state ?? shape.stateAt(nowMs), decision };
      const unit = shape.unitMs(policy);
      const after = debtMs(state, nowMs) + cost * unit;
      return { state: shape.stateAt(nowMs + after), decision: describe(after, unit, policy, true, 0) };
    },
    observe(state, nowMs, policy, remaining) {
      const reportedUse = Math.min(policy.capacity, Math.max(0, policy.capacity - remaining));
      const reportedDebt = reportedUse * shape.unitMs(policy);
      if (state !== undefined && debtMs(state, nowMs) >= reportedDebt) return state;
      return shape.stateAt(nowMs + reportedDebt);
    },
  };
}
