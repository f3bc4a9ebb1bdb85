// The in-process rate-limit store, run by the one algorithm it is given: a Map from key to that
// algorithm's state, each entry with the time it returns to the initial state, after which it is
// dropped. Expired entries are swept at most once per `sweepIntervalMs`, driven by calls (no
// timers), so memory stays bounded by the keys active recently. A client's scheduler builds one
// from its API's `ApiLimitModel`, so only that algorithm is bundled; `MemoryStore` is this store
// run by all four. Not shared between processes: use the Redis store for that.
import { type Clock, systemClock } from './clock.js';
import type { Decision, LimitAlgorithm, LimitPolicy } from './policy.js';
import type { RateLimitStore } from './store.js';

/** Options of {@link AlgorithmMemoryStore} and `MemoryStore`. */
export interface MemoryStoreOptions {
  /** Time source used when a call passes no `nowMs` (default `Date.now`). */
  readonly clock?: Clock;
  /** Least time between two sweeps of expired keys (default 60 000 ms). */
  readonly sweepIntervalMs?: number;
}

interface Entry<S> {
  readonly state: S;
  /** When the state is back to "never used" and can be forgotten. */
  readonly expiresAt: number;
}

/**
 * A {@link RateLimitStore} in this process's memory for the policies `algorithm` runs: give it only
 * those (a client passes its API's policy, the algorithm its model names).
 */
export class AlgorithmMemoryStore<P extends LimitPolicy, S> implements RateLimitStore {
  readonly #algorithm: LimitAlgorithm<P, S>;
  readonly #entries = new Map<string, Entry<S>>();
  readonly #clock: Clock;
  readonly #sweepIntervalMs: number;
  #nextSweepAt = Number.NEGATIVE_INFINITY;

  constructor(algorithm: LimitAlgorithm<P, S>, options: MemoryStoreOptions = {}) {
    this.#algorithm = algorithm;
    this.#clock = options.clock ?? systemClock;
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  }

  /** Number of keys held (expired ones included until the next sweep). */
  get size(): number {
    return this.#entries.size;
  }

  async decide(key: string, policy: P, nowMs?: number, cost = 1): Promise<Decision> {
    const now = this.#now(nowMs);
    const { state, decision } = this.#algorithm.decide(this.#read(key, now), now, policy, cost);
    this.#write(key, state, now + decision.resetMs);
    return decision;
  }

  async peek(key: string, policy: P, nowMs?: number, cost = 1): Promise<Decision> {
    const now = this.#now(nowMs);
    return this.#algorithm.peek(this.#read(key, now), now, policy, cost);
  }

  async observe(key: string, policy: P, remaining: number, nowMs?: number): Promise<Decision> {
    const now = this.#now(nowMs);
    const state = this.#algorithm.observe(this.#read(key, now), now, policy, remaining);
    const decision = this.#algorithm.peek(state, now, policy, 1);
    this.#write(key, state, now + decision.resetMs);
    return decision;
  }

  /** Forgets every key. */
  clear(): void {
    this.#entries.clear();
  }

  #now(nowMs: number | undefined): number {
    const now = nowMs ?? this.#clock();
    if (now >= this.#nextSweepAt) this.#sweep(now);
    return now;
  }

  #read(key: string, now: number): S | undefined {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.expiresAt > now ? entry.state : undefined;
  }

  #write(key: string, state: S, expiresAt: number): void {
    this.#entries.set(key, { state, expiresAt });
  }

  #sweep(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(key);
    }
    this.#nextSweepAt = now + this.#sweepIntervalMs;
  }
}
