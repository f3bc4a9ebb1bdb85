import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FixedWindowState, fixedWindow } from './algorithms/fixed-window.js';
import type { Decision, FixedWindowPolicy } from './policy.js';
import { callGaps, replay, timedCalls } from './testing/algorithm-runs.js';

/** Obviously correct: keep every admitted call and count those in the same window. */
function referenceFixedWindow(policy: FixedWindowPolicy, calls: readonly { at: number; cost: number }[]) {
  const admitted: { at: number; cost: number }[] = [];
  return calls.map(({ at, cost }) => {
    const window = Math.floor(at / policy.windowMs);
    const inWindow = () =>
      admitted
        .filter((call) => Math.floor(call.at / policy.windowMs) === window)
        .reduce((sum, c) => sum + c.cost, 0);
    const allowed = inWindow() + cost <= policy.limit;
    if (allowed) admitted.push({ at, cost });
    const windowEnd = (window + 1) * policy.windowMs;
    return {
      allowed,
      used: inWindow(),
      remaining: policy.limit - inWindow(),
      retryAfterMs: allowed ? 0 : windowEnd - at,
      resetMs: windowEnd - at,
    };
  });
}

const policyArb = fc.record({
  kind: fc.constant('fixed-window' as const),
  limit: fc.integer({ min: 1, max: 8 }),
  windowMs: fc.integer({ min: 1, max: 5_000 }),
});

const callsArb = callGaps(3_000, 60);

const minute: FixedWindowPolicy = { kind: 'fixed-window', limit: 40, windowMs: 60_000 };
const start = Date.UTC(2025, 0, 1, 12, 0, 0); // a minute boundary

function run(policy: FixedWindowPolicy, times: readonly number[]): Decision[] {
  let state: FixedWindowState | undefined;
  return times.map((at) => {
    const outcome = fixedWindow.decide(state, at, policy);
    state = outcome.state;
    return outcome.decision;
  });
}

describe('fixedWindow', () => {
  it('agrees with a reference model that lists admitted calls, for random call times and costs', () => {
    fc.assert(
      fc.property(policyArb, fc.integer({ min: 1.6e12, max: 1.8e12 }), callsArb, (policy, origin, raw) => {
        const calls = timedCalls(origin, raw, policy.limit);
        const actual = replay(fixedWindow, policy, calls);
        expect(actual).toEqual(referenceFixedWindow(policy, calls));
      }),
      { numRuns: 300 },
    );
  });

  it('admits exactly 40 calls in a minute and refuses the 41st', () => {
    const decisions = run(
      minute,
      Array.from({ length: 41 }, (_, i) => start + 1_000 + i * 10),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(40);
    expect(decisions.map((d) => d.remaining).slice(0, 40)).toEqual(
      Array.from({ length: 40 }, (_, i) => 39 - i),
    );
    expect(decisions[39]).toMatchObject({ allowed: true, used: 40, remaining: 0 });
    expect(decisions[40]).toMatchObject({
      allowed: false,
      used: 40,
      remaining: 0,
      retryAfterMs: 60_000 - 1_400,
    });
  });

  it('resets at the window boundary, not a minute after the first call', () => {
    let state: FixedWindowState | undefined;
    for (let i = 0; i < 40; i++) state = fixedWindow.decide(state, start + 30_000, minute).state;
    expect(fixedWindow.decide(state, start + 59_999, minute).decision).toMatchObject({
      allowed: false,
      retryAfterMs: 1,
    });
    expect(fixedWindow.decide(state, start + 60_000, minute).decision).toMatchObject({
      allowed: true,
      used: 1,
      remaining: 39,
      resetMs: 60_000,
    });
  });

  it('keeps a saved window that starts later than the caller clock instead of resetting it', () => {
    const { state } = fixedWindow.decide(undefined, start + 60_000, { ...minute, limit: 1 });
    expect(fixedWindow.decide(state, start + 59_000, { ...minute, limit: 1 }).decision.allowed).toBe(false);
  });
});
