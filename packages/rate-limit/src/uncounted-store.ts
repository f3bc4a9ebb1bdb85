// A rate-limit store that keeps nothing: every call is decided, looked at or observed on a fresh
// state ("never used"), so no call is refused for the calls before it and the answer carries the
// policy's own limit. For a server that must serve without enforcing its limits — a load test
// measuring the server rather than its limit — while its answers keep the limit headers the API
// describes. A cost above the limit is still an `invalid_cost` error, as in every store.
import { type Clock, systemClock } from './clock.js';
import { decideLimit, peekLimit } from './limit-state.js';
import type { Decision, LimitPolicy } from './policy.js';
import type { RateLimitStore } from './store.js';

/** A {@link RateLimitStore} that counts no call: each decision is the first of a fresh state. */
export class UncountedStore implements RateLimitStore {
  readonly #clock: Clock;

  /** @param clock time source when a call passes no `nowMs` (default `Date.now`) */
  constructor(clock: Clock = systemClock) {
    this.#clock = clock;
  }

  async decide(_key: string, policy: LimitPolicy, nowMs?: number, cost = 1): Promise<Decision> {
    return decideLimit(undefined, nowMs ?? this.#clock(), policy, cost).decision;
  }

  async peek(_key: string, policy: LimitPolicy, nowMs?: number, cost = 1): Promise<Decision> {
    return peekLimit(undefined, nowMs ?? this.#clock(), policy, cost);
  }

  /** Keeps nothing of what a server reported: answers as {@link peek} of cost 1. */
  async observe(key: string, policy: LimitPolicy, _remaining: number, nowMs?: number): Promise<Decision> {
    return this.peek(key, policy, nowMs);
  }
}
