// What a profile fault does to one call: how long it waits and whether it gets an error status,
// drawn from a Mersenne Twister (pure-rand) seeded with the rule's seed and the call's number (from
// 0), so a seed gives the same sequence call by call whichever replica takes each call, and no draw
// depends on another rule or on timing. Latency is fixed, uniform, or log-normal from its median and
// 99th percentile, never over `maxDelayMs`. The waiting is the faults stage's.
import type { FaultAction, FaultErrorRate, FaultLatency } from '@mall-api/mall-state';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { mersenne } from 'pure-rand/generator/mersenne';

/** A profile action, as the fault rules store it. */
export type ProfileAction = Extract<FaultAction, { kind: 'profile' }>;

/** What one call of a profile gets: its delay, then the error it is answered with, if any. */
export interface ProfileDraw {
  readonly delayMs: number;
  readonly error?: FaultErrorRate;
}

/** The standard normal quantile of 0.99: a log-normal's p99 is its median times e^(σ·z99). */
const z99 = 2.3263478740408408;

/** The generator of a call: the rule's seed mixed with the call's number (an odd multiplier keeps calls apart). */
const generatorOf = (seed: number, call: number) => mersenne((seed ^ Math.imul(call, 0x9e3779b9)) >>> 0);

/** A standard normal draw from two uniform ones (Box–Muller); `u1` in [0, 1). */
const standardNormal = (u1: number, u2: number): number =>
  Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);

/** A delay of the latency from two uniform draws, in whole milliseconds, at most `maxDelayMs`. */
export function latencyOf(latency: FaultLatency, u1: number, u2: number, maxDelayMs: number): number {
  let ms: number;
  switch (latency.distribution) {
    case 'fixed':
      ms = latency.ms;
      break;
    case 'uniform':
      ms = latency.minMs + u1 * (latency.maxMs - latency.minMs);
      break;
    case 'log-normal': {
      const sigma = Math.log(latency.p99Ms / latency.medianMs) / z99;
      ms = latency.medianMs * Math.exp(sigma * standardNormal(u1, u2));
      break;
    }
  }
  return Math.min(Math.round(ms), maxDelayMs);
}

/** The error of a draw `u` in [0, 1): the first whose rates, added up in order, pass `u`. */
export function errorOf(errors: readonly FaultErrorRate[], u: number): FaultErrorRate | undefined {
  let reached = 0;
  return errors.find((error) => {
    reached += error.rate;
    return u < reached;
  });
}

/**
 * What call `call` (from 0) of a profile gets. Every call takes three draws in the same order (two
 * for its latency, one for its error), so the latency of a call does not change when errors are
 * added to the profile, nor the other way round.
 */
export function drawProfile(action: ProfileAction, call: number, maxDelayMs: number): ProfileDraw {
  const generator = generatorOf(action.seed, call);
  const [u1, u2, u3] = [uniformFloat64(generator), uniformFloat64(generator), uniformFloat64(generator)];
  const delayMs = action.latency ? latencyOf(action.latency, u1, u2, maxDelayMs) : 0;
  const error = action.errors && errorOf(action.errors, u3);
  return error ? { delayMs, error } : { delayMs };
}
