// What a profile draws, call by call: the same seed gives the same sequence, every delay stays in
// its distribution's bounds and under the longest delay allowed, a log-normal's median and 99th
// percentile come out as asked over many calls, and errors come at their rates. Deterministic: every
// draw follows from the seed.
import { describe, expect, it } from 'vitest';
import { drawProfile, errorOf, latencyOf, type ProfileAction } from './fault-profile.js';

const bound = 600_000;
const draws = (action: ProfileAction, calls: number, maxDelayMs = bound) =>
  Array.from({ length: calls }, (_, call) => drawProfile(action, call, maxDelayMs));
const quantile = (sorted: readonly number[], q: number) => sorted[Math.floor(q * (sorted.length - 1))] ?? NaN;

const logNormal: ProfileAction = {
  kind: 'profile',
  latency: { distribution: 'log-normal', medianMs: 80, p99Ms: 900 },
  errors: [{ status: 503, rate: 0.02 }],
  seed: 42,
};

describe('a profile’s draws', () => {
  it('are the same call by call for the same seed, and differ for another seed', () => {
    expect(draws(logNormal, 50)).toEqual(draws(logNormal, 50));
    const other = draws({ ...logNormal, seed: 43 }, 50).map((draw) => draw.delayMs);
    expect(other).not.toEqual(draws(logNormal, 50).map((draw) => draw.delayMs));
  });

  it('give a call the same draw whatever was drawn before it', () => {
    expect(drawProfile(logNormal, 37, bound)).toEqual(draws(logNormal, 38)[37]);
  });

  it('keep a call’s latency when errors are added to the profile, and its errors when latency is', () => {
    const { errors: _errors, ...latencyOnly } = logNormal;
    const { latency: _latency, ...errorsOnly } = logNormal;
    const both = draws(logNormal, 200);
    expect(draws(latencyOnly, 200).map((draw) => draw.delayMs)).toEqual(both.map((draw) => draw.delayMs));
    expect(draws(errorsOnly, 200).map((draw) => draw.error)).toEqual(both.map((draw) => draw.error));
  });

  it('wait exactly the fixed delay, or within a uniform range', () => {
    const fixed = draws({ kind: 'profile', latency: { distribution: 'fixed', ms: 250 }, seed: 1 }, 100);
    expect(new Set(fixed.map((draw) => draw.delayMs))).toEqual(new Set([250]));
    const uniform = draws(
      { kind: 'profile', latency: { distribution: 'uniform', minMs: 100, maxMs: 300 }, seed: 1 },
      2_000,
    ).map((draw) => draw.delayMs);
    expect(Math.min(...uniform)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...uniform)).toBeLessThanOrEqual(300);
    // Spread over the range: each fifth of it gets about a fifth of the calls.
    const fifths = [0, 1, 2, 3, 4].map(
      (fifth) => uniform.filter((ms) => ms >= 100 + fifth * 40 && ms < 140 + fifth * 40).length,
    );
    for (const count of fifths) expect(count).toBeGreaterThan(300);
  });

  it('come out of a log-normal with the median and p99 asked for', () => {
    const sorted = draws(logNormal, 20_000)
      .map((draw) => draw.delayMs)
      .sort((a, b) => a - b);
    expect(quantile(sorted, 0.5)).toBeGreaterThanOrEqual(76);
    expect(quantile(sorted, 0.5)).toBeLessThanOrEqual(84);
    expect(quantile(sorted, 0.99)).toBeGreaterThanOrEqual(800);
    expect(quantile(sorted, 0.99)).toBeLessThanOrEqual(1_000);
  });

  it('never wait longer than the longest delay allowed', () => {
    const tail: ProfileAction = {
      kind: 'profile',
      latency: { distribution: 'log-normal', medianMs: 1_000, p99Ms: 5_000 },
      seed: 9,
    };
    const delays = draws(tail, 5_000, 5_000).map((draw) => draw.delayMs);
    expect(Math.max(...delays)).toBe(5_000);
    // About 1 call in 100 reaches the bound; the rest stay below it.
    expect(delays.filter((ms) => ms === 5_000).length).toBeGreaterThan(20);
    expect(delays.filter((ms) => ms === 5_000).length).toBeLessThan(100);
  });

  it('answer each error at its rate, and the rest as usual', () => {
    const profile: ProfileAction = {
      kind: 'profile',
      errors: [
        { status: 503, rate: 0.1 },
        { status: 429, rate: 0.05, retryAfterSeconds: 2 },
      ],
      seed: 5,
    };
    const statuses = draws(profile, 20_000).map((draw) => draw.error?.status);
    const share = (status: number | undefined) =>
      statuses.filter((s) => s === status).length / statuses.length;
    expect(share(503)).toBeCloseTo(0.1, 2);
    expect(share(429)).toBeCloseTo(0.05, 2);
    expect(share(undefined)).toBeCloseTo(0.85, 2);
    expect(draws(profile, 20_000).every((draw) => draw.delayMs === 0)).toBe(true);
  });
});

describe('the draw of one call', () => {
  it('picks the error whose rates, added up in order, pass the draw', () => {
    const errors = [
      { status: 503, rate: 0.1 },
      { status: 500, rate: 0.2 },
    ];
    expect([0, 0.0999, 0.1, 0.2999, 0.31, 0.99].map((u) => errorOf(errors, u)?.status)).toEqual([
      503,
      503,
      500,
      500,
      undefined,
      undefined,
    ]);
  });

  it('gives a log-normal’s median for the middle draw, rounded to whole milliseconds', () => {
    // u1 = 1 - e^-0.5 makes the normal's radius 1; u2 = 1/4 makes its cosine 0: the standard normal draw is 0.
    const latency = { distribution: 'log-normal', medianMs: 80, p99Ms: 900 } as const;
    expect(latencyOf(latency, 1 - Math.exp(-0.5), 0.25, bound)).toBe(80);
    expect(latencyOf({ distribution: 'uniform', minMs: 10, maxMs: 20 }, 0.55, 0, bound)).toBe(16);
  });
});
