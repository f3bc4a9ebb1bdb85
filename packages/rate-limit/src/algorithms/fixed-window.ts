// Fixed window: at most `limit` units in each window of `windowMs`, windows aligned to multiples of
// `windowMs` since the epoch (so every process and store agrees on the boundaries). Pure and O(1);
// the state is the current window's start and count. Not for smoothing bursts: a client may spend
// the whole limit at the end of one window and again at the start of the next.
import type { Decision, FixedWindowPolicy, LimitAlgorithm } from '../policy.js';
import { assertCost } from '../policy.js';

/** The counter of the current window. */
export interface FixedWindowState {
  readonly kind: 'fixed-window';
  /** Start of the window the count belongs to (ms since the epoch). */
  readonly windowStart: number;
  /** Units admitted in that window. */
  readonly count: number;
}

/** The state as of `nowMs`: the saved window, or a fresh one once it is over. */
function currentWindow(
  state: FixedWindowState | undefined,
  nowMs: number,
  policy: FixedWindowPolicy,
): FixedWindowState {
  const windowStart = nowMs - (((nowMs % policy.windowMs) + policy.windowMs) % policy.windowMs);
  // A saved window that starts later than ours (a clock that stepped back) is kept, not reset.
  if (state !== undefined && state.windowStart >= windowStart) return state;
  return { kind: 'fixed-window', windowStart, count: 0 };
}

function describe(
  window: FixedWindowState,
  nowMs: number,
  policy: FixedWindowPolicy,
  allowed: boolean,
  retryAfterMs: number,
): Decision {
  const used = Math.min(window.count, policy.limit);
  return {
    allowed,
    limit: policy.limit,
    used,
    remaining: policy.limit - used,
    retryAfterMs,
    resetMs: window.windowStart + policy.windowMs - nowMs,
  };
}

/**
 * The fixed-window algorithm: `fixedWindow.decide(state, nowMs, policy, cost)` admits or refuses,
 * `peek` answers without consuming, `observe` syncs with a server's reported remaining budget.
 */
export const fixedWindow: LimitAlgorithm<FixedWindowPolicy, FixedWindowState> = {
  peek(state, nowMs, policy, cost = 1) {
    assertCost(cost, policy.limit);
    const window = currentWindow(state, nowMs, policy);
    const fits = window.count + cost <= policy.limit;
    return describe(window, nowMs, policy, fits, fits ? 0 : window.windowStart + policy.windowMs - nowMs);
  },
  decide(state, nowMs, policy, cost = 1) {
    const window = currentWindow(state, nowMs, policy);
    const decision = fixedWindow.peek(window, nowMs, policy, cost);
    if (!decision.allowed) return { state: window, decision };
    const next: FixedWindowState = { ...window, count: window.count + cost };
    return { state: next, decision: describe(next, nowMs, policy, true, 0) };
  },
  observe(state, nowMs, policy, remaining) {
    const window = currentWindow(state, nowMs, policy);
    const reportedUse = Math.min(policy.limit, Math.max(0, policy.limit - remaining));
    return reportedUse > window.count ? { ...window, count: reportedUse } : window;
  },
};
