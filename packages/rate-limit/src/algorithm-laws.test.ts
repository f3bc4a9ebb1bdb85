import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateLimitError } from './errors.js';
import { decideLimit, type LimitState, observeLimit, peekLimit, timeUntilAdmitted } from './limit-state.js';
import type { LimitPolicy } from './policy.js';
import { checkPolicy, policyLimit } from './policy.js';

const policyArb: fc.Arbitrary<LimitPolicy> = fc.oneof(
  fc.record({
    kind: fc.constant('sliding-log' as const),
    limit: fc.integer({ min: 1, max: 8 }),
    windowMs: fc.integer({ min: 1, max: 5_000 }),
  }),
  fc.record({
    kind: fc.constant('fixed-window' as const),
    limit: fc.integer({ min: 1, max: 8 }),
    windowMs: fc.integer({ min: 1, max: 5_000 }),
  }),
  fc.record({
    kind: fc.constant('leaky-bucket' as const),
    capacity: fc.integer({ min: 1, max: 8 }),
    leakPerSecond: fc.constantFrom(1, 2, 4, 5, 8, 10, 20, 25, 40, 50),
  }),
  fc.record({
    kind: fc.constant('token-bucket' as const),
    capacity: fc.integer({ min: 1, max: 8 }),
    refillIntervalMs: fc.integer({ min: 1, max: 2_000 }),
  }),
);

/** A policy, a state reached by random calls, and the time after them. */
const historyArb = fc
  .tuple(
    policyArb,
    fc.integer({ min: 1.6e12, max: 1.8e12 }),
    fc.array(fc.tuple(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 1, max: 8 })), { maxLength: 30 }),
  )
  .map(([policy, origin, calls]) => {
    let state: LimitState | undefined;
    let now = origin;
    for (const [gap, cost] of calls) {
      now += gap;
      state = decideLimit(state, now, policy, 1 + ((cost - 1) % policyLimit(policy))).state;
    }
    return { policy, state, now };
  });

const costArb = fc.integer({ min: 1, max: 8 });
const costFor = (policy: LimitPolicy, raw: number): number => 1 + ((raw - 1) % policyLimit(policy));

describe('every algorithm', () => {
  it('tells the exact wait: a refused call is admitted after retryAfterMs and not a millisecond earlier', () => {
    fc.assert(
      fc.property(historyArb, costArb, ({ policy, state, now }, raw) => {
        const cost = costFor(policy, raw);
        const wait = timeUntilAdmitted(state, now, policy, cost);
        expect(decideLimit(state, now + wait, policy, cost).decision.allowed).toBe(true);
        if (wait > 0) {
          expect(decideLimit(state, now, policy, cost).decision).toMatchObject({
            allowed: false,
            retryAfterMs: wait,
          });
          expect(decideLimit(state, now + wait - 1, policy, cost).decision.allowed).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('peek answers what decide would, without consuming anything', () => {
    fc.assert(
      fc.property(historyArb, costArb, ({ policy, state, now }, raw) => {
        const cost = costFor(policy, raw);
        const peeked = peekLimit(state, now, policy, cost);
        const decided = decideLimit(state, now, policy, cost);
        expect(peeked.allowed).toBe(decided.decision.allowed);
        expect(peeked.retryAfterMs).toBe(decided.decision.retryAfterMs);
        expect(peekLimit(state, now, policy, cost)).toEqual(peeked);
        if (decided.decision.allowed)
          expect(decided.decision.remaining).toBe(peeked.remaining - Math.ceil(cost));
      }),
      { numRuns: 300 },
    );
  });

  it('is back to its initial state once resetMs has passed, so stores may forget the key then', () => {
    fc.assert(
      fc.property(historyArb, costArb, ({ policy, state, now }, raw) => {
        const cost = costFor(policy, raw);
        const later = now + peekLimit(state, now, policy, cost).resetMs;
        expect(decideLimit(state, later, policy, cost).decision).toEqual(
          decideLimit(undefined, later, policy, cost).decision,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('observe lowers the remaining budget to what a server reported and never raises it', () => {
    fc.assert(
      fc.property(historyArb, fc.integer({ min: 0, max: 10 }), ({ policy, state, now }, reported) => {
        const before = peekLimit(state, now, policy).remaining;
        const after = peekLimit(observeLimit(state, now, policy, reported), now, policy).remaining;
        expect(after).toBe(Math.min(before, reported));
      }),
      { numRuns: 300 },
    );
  });

  it('uses integer used and remaining that add up to the limit', () => {
    fc.assert(
      fc.property(historyArb, ({ policy, state, now }) => {
        const decision = peekLimit(state, now, policy);
        expect(Number.isInteger(decision.used) && Number.isInteger(decision.remaining)).toBe(true);
        expect(decision.used + decision.remaining).toBe(policyLimit(policy));
        expect(decision.limit).toBe(policyLimit(policy));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses to price a call above the whole limit, with an invalid_cost error', () => {
    const policy: LimitPolicy = { kind: 'token-bucket', capacity: 10, refillIntervalMs: 2_000 };
    expect(() => decideLimit(undefined, 0, policy, 11)).toThrow(RateLimitError);
    expect(() => peekLimit(undefined, 0, policy, -1)).toThrow(
      expect.objectContaining({ code: 'invalid_cost' }),
    );
  });

  it('treats a saved state of another algorithm (the key changed policy) as absent', () => {
    const old = decideLimit(undefined, 0, { kind: 'fixed-window', limit: 1, windowMs: 1_000 }).state;
    const bucket: LimitPolicy = { kind: 'leaky-bucket', capacity: 1, leakPerSecond: 1 };
    expect(decideLimit(old, 0, bucket).decision.allowed).toBe(true);
  });

  it('rejects unusable policies with an invalid_policy error value', () => {
    expect(checkPolicy({ kind: 'fixed-window', limit: 40, windowMs: 60_000 })).toBeUndefined();
    expect(checkPolicy({ kind: 'fixed-window', limit: 0, windowMs: 60_000 })?.code).toBe('invalid_policy');
    expect(checkPolicy({ kind: 'leaky-bucket', capacity: 2.5, leakPerSecond: 2 })?.code).toBe(
      'invalid_policy',
    );
    expect(checkPolicy({ kind: 'token-bucket', capacity: 10, refillIntervalMs: Number.NaN })?.code).toBe(
      'invalid_policy',
    );
  });
});
