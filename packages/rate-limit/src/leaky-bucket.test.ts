import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LeakyBucketState, leakyBucket } from './algorithms/leaky-bucket.js';
import type { Decision, LeakyBucketPolicy } from './policy.js';
import { callGaps, hammer, replay, timedCalls } from './testing/algorithm-runs.js';

/**
 * Obviously correct: the bucket level in thousandths of a call, drained by `leakPerSecond`
 * thousandths every millisecond (that is `leakPerSecond` calls per second), stepped one ms at a time.
 */
function referenceLeakyBucket(policy: LeakyBucketPolicy, calls: readonly { at: number; cost: number }[]) {
  let level = 0;
  let clock = calls[0]?.at ?? 0;
  const full = policy.capacity * 1000;
  return calls.map(({ at, cost }) => {
    for (; clock < at; clock++) level = Math.max(0, level - policy.leakPerSecond);
    const allowed = level + cost * 1000 <= full;
    const overflow = level + cost * 1000 - full;
    if (allowed) level += cost * 1000;
    const used = Math.ceil(level / 1000);
    return {
      allowed,
      used,
      remaining: policy.capacity - used,
      retryAfterMs: allowed ? 0 : overflow / policy.leakPerSecond,
      resetMs: level / policy.leakPerSecond,
    };
  });
}

// Drain rates with a whole number of ms per call, so the reference's integer steps are exact.
const policyArb = fc.record({
  kind: fc.constant('leaky-bucket' as const),
  capacity: fc.integer({ min: 1, max: 8 }),
  leakPerSecond: fc.constantFrom(1, 2, 4, 5, 8, 10, 20, 25, 40, 50),
});

const callsArb = callGaps(1_500, 50);

/** The admin API's bucket (seed 8; the spec's `x-rate-limit` states it too, see api-limits.test.ts). */
const admin: LeakyBucketPolicy = { kind: 'leaky-bucket', capacity: 40, leakPerSecond: 2 };
const start = 1_750_000_000_000;

describe('leakyBucket', () => {
  it('agrees with a reference bucket drained one millisecond at a time, for random call times and costs', () => {
    fc.assert(
      fc.property(policyArb, fc.integer({ min: 1.6e12, max: 1.8e12 }), callsArb, (policy, origin, raw) => {
        const calls = timedCalls(origin, raw, policy.capacity);
        const actual = replay(leakyBucket, policy, calls);
        expect(actual).toEqual(referenceLeakyBucket(policy, calls));
      }),
      { numRuns: 200 },
    );
  });

  it('admits a burst of 40 and refuses the 41st until the first call has drained (500 ms)', () => {
    const { state, admittedAt } = hammer(leakyBucket, admin, undefined, start, start + 41, 1);
    expect(admittedAt).toHaveLength(40);
    const refused: Decision = leakyBucket.decide(state, start + 41, admin).decision;
    expect(refused).toMatchObject({ allowed: false, used: 40, remaining: 0, retryAfterMs: 500 - 41 });
  });

  it('after the burst admits 2 calls per second, one every 500 ms', () => {
    const burst = hammer(leakyBucket, admin, undefined, start, start + 40, 1);
    const steady = hammer(leakyBucket, admin, burst.state, start + 40, start + 10_040, 10);
    expect(steady.admittedAt).toHaveLength(20);
    expect(steady.admittedAt.slice(0, 3)).toEqual([start + 500, start + 1_000, start + 1_500]);
  });

  it('reports the level after the call, rounded up, as used', () => {
    let state: LeakyBucketState | undefined;
    for (let i = 0; i < 10; i++) state = leakyBucket.decide(state, start, admin).state;
    // 1.25 s later 2.5 calls have drained: level 7.5, plus this call 8.5 -> 9.
    expect(leakyBucket.decide(state, start + 1_250, admin).decision).toMatchObject({
      used: 9,
      remaining: 31,
    });
  });
});
