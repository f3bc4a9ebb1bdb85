import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SlidingLogState, slidingLog } from './algorithms/sliding-log.js';
import type { SlidingLogPolicy } from './policy.js';
import { callGaps, replay, timedCalls } from './testing/algorithm-runs.js';

/** Obviously correct: keep every admitted call and count those of the last `windowMs`. */
function referenceSlidingLog(policy: SlidingLogPolicy, calls: readonly { at: number; cost: number }[]) {
  const admitted: { at: number; cost: number }[] = [];
  const live = (at: number) => admitted.filter((call) => call.at > at - policy.windowMs);
  const usedAt = (at: number) => live(at).reduce((sum, call) => sum + call.cost, 0);
  return calls.map(({ at, cost }) => {
    const allowed = usedAt(at) + cost <= policy.limit;
    if (allowed) admitted.push({ at, cost });
    // The first instant after `at` at which `cost` more units fit: try each expiry in turn.
    const expiries = live(at).map((call) => call.at + policy.windowMs);
    const retryAt = allowed ? at : Math.min(...expiries.filter((t) => usedAt(t) + cost <= policy.limit));
    const newest = Math.max(...live(at).map((call) => call.at));
    return {
      allowed,
      used: usedAt(at),
      remaining: policy.limit - usedAt(at),
      retryAfterMs: retryAt - at,
      resetMs: live(at).length === 0 ? 0 : newest + policy.windowMs - at,
    };
  });
}

const policyArb = fc.record({
  kind: fc.constant('sliding-log' as const),
  limit: fc.integer({ min: 1, max: 8 }),
  windowMs: fc.integer({ min: 1, max: 5_000 }),
});

const callsArb = callGaps(3_000, 60);

/** The collection API's limit (seed 8: 40 per minute; the spec's `x-rate-limit` states it too). */
const minute: SlidingLogPolicy = { kind: 'sliding-log', limit: 40, windowMs: 60_000 };
const start = Date.UTC(2025, 0, 1, 12, 0, 0); // a minute boundary

function admittedAt(policy: SlidingLogPolicy, times: readonly number[]): number[] {
  let state: SlidingLogState | undefined;
  return times.filter((at) => {
    const outcome = slidingLog.decide(state, at, policy);
    state = outcome.state;
    return outcome.decision.allowed;
  });
}

describe('slidingLog', () => {
  it('agrees with a reference model that lists admitted calls, for random call times and costs', () => {
    fc.assert(
      fc.property(policyArb, fc.integer({ min: 1.6e12, max: 1.8e12 }), callsArb, (policy, origin, raw) => {
        const calls = timedCalls(origin, raw, policy.limit);
        expect(replay(slidingLog, policy, calls)).toEqual(referenceSlidingLog(policy, calls));
      }),
      { numRuns: 300 },
    );
  });

  it('never admits more than the limit in any span of the window, whatever the call times', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300_000 }), { maxLength: 300 }), (offsets) => {
        const admitted = admittedAt(
          minute,
          offsets.map((offset) => start + offset).sort((a, b) => a - b),
        );
        for (const [i, at] of admitted.entries()) {
          expect(
            admitted.slice(i).filter((later) => later < at + minute.windowMs).length,
          ).toBeLessThanOrEqual(40);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('refuses the 41st call within a minute, also across a clock-minute boundary', () => {
    // 40 calls in the last second of one clock minute, 40 more in the first second of the next:
    // a fixed window admits all 80; the sliding log admits none of the second 40.
    const late = Array.from({ length: 40 }, (_, i) => start + 59_000 + i * 10);
    const early = Array.from({ length: 40 }, (_, i) => start + 60_000 + i * 10);
    expect(admittedAt(minute, [...late, ...early])).toEqual(late);
  });

  it('admits again exactly a minute after the oldest call it counts, not earlier', () => {
    let state: SlidingLogState | undefined;
    for (let i = 0; i < 40; i++) state = slidingLog.decide(state, start + i * 1_000, minute).state;
    expect(slidingLog.decide(state, start + 59_999, minute).decision).toMatchObject({
      allowed: false,
      used: 40,
      retryAfterMs: 1,
    });
    expect(slidingLog.decide(state, start + 60_000, minute).decision).toMatchObject({
      allowed: true,
      used: 40,
      remaining: 0,
      resetMs: 60_000,
    });
  });

  it('keeps entries a clock that stepped back would see in the future', () => {
    const single = { ...minute, limit: 1 };
    const { state } = slidingLog.decide(undefined, start + 60_000, single);
    expect(slidingLog.decide(state, start + 59_000, single).decision).toMatchObject({
      allowed: false,
      retryAfterMs: 61_000,
    });
  });
});
