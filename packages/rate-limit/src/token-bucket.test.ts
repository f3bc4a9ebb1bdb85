import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type TokenBucketState, tokenBucket } from './algorithms/token-bucket.js';
import type { TokenBucketPolicy } from './policy.js';
import { callGaps, hammer, replay, timedCalls } from './testing/algorithm-runs.js';

/**
 * Obviously correct: tokens counted in ticks (one token = `refillIntervalMs` ticks), one tick added
 * every millisecond up to the capacity, stepped one ms at a time; the bucket starts full.
 */
function referenceTokenBucket(policy: TokenBucketPolicy, calls: readonly { at: number; cost: number }[]) {
  const perToken = policy.refillIntervalMs;
  const full = policy.capacity * perToken;
  let ticks = full;
  let clock = calls[0]?.at ?? 0;
  return calls.map(({ at, cost }) => {
    for (; clock < at; clock++) ticks = Math.min(full, ticks + 1);
    const allowed = ticks >= cost * perToken;
    const short = cost * perToken - ticks;
    if (allowed) ticks -= cost * perToken;
    const remaining = Math.floor(ticks / perToken);
    return {
      allowed,
      used: policy.capacity - remaining,
      remaining,
      retryAfterMs: allowed ? 0 : short,
      resetMs: full - ticks,
    };
  });
}

const policyArb = fc.record({
  kind: fc.constant('token-bucket' as const),
  capacity: fc.integer({ min: 1, max: 8 }),
  refillIntervalMs: fc.integer({ min: 1, max: 400 }),
});

const callsArb = callGaps(1_200, 50);

/** The analytics API's bucket (seed 8; the spec's `x-rate-limit` states it too, see api-limits.test.ts). */
const analytics: TokenBucketPolicy = { kind: 'token-bucket', capacity: 10, refillIntervalMs: 2_000 };
const start = 1_750_000_000_000;

describe('tokenBucket', () => {
  it('agrees with a reference bucket refilled one millisecond at a time, for random call times and costs', () => {
    fc.assert(
      fc.property(policyArb, fc.integer({ min: 1.6e12, max: 1.8e12 }), callsArb, (policy, origin, raw) => {
        const calls = timedCalls(origin, raw, policy.capacity);
        const actual = replay(tokenBucket, policy, calls);
        expect(actual).toEqual(referenceTokenBucket(policy, calls));
      }),
      { numRuns: 200 },
    );
  });

  it('starts full: admits a burst of 10 and refuses the 11th until the first token is back (2 s)', () => {
    const { state, admittedAt } = hammer(tokenBucket, analytics, undefined, start, start + 11, 1);
    expect(admittedAt).toHaveLength(10);
    expect(tokenBucket.decide(state, start + 11, analytics).decision).toMatchObject({
      allowed: false,
      remaining: 0,
      retryAfterMs: 2_000 - 11,
    });
  });

  it('after the burst admits one call every 2 s', () => {
    const burst = hammer(tokenBucket, analytics, undefined, start, start + 10, 1);
    const steady = hammer(tokenBucket, analytics, burst.state, start + 10, start + 20_010, 10);
    expect(steady.admittedAt).toHaveLength(10);
    expect(steady.admittedAt.slice(0, 3)).toEqual([start + 2_000, start + 4_000, start + 6_000]);
  });

  it('reports whole tokens left, rounded down, as remaining', () => {
    let state: TokenBucketState | undefined;
    for (let i = 0; i < 5; i++) state = tokenBucket.decide(state, start, analytics).state;
    // 3 s later 1.5 tokens came back: 6.5 tokens, minus this call 5.5 -> 5.
    expect(tokenBucket.decide(state, start + 3_000, analytics).decision).toMatchObject({
      remaining: 5,
      used: 5,
    });
  });
});
