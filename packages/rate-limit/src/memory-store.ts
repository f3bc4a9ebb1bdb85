// The in-process rate-limit store (the default): one Map from key to limiter state, each entry
// with the time it returns to the initial state, after which it is dropped. Expired entries are
// swept at most once per `sweepIntervalMs`, driven by calls (no timers), so memory stays bounded
// by the keys active recently. Not shared between processes: use the Redis store for that.
import { type Clock, systemClock } from './clock.js';
import { decideLimit, type LimitState, observeLimit, peekLimit } from './limit-state.js';
import type { Decision, LimitPolicy } from './policy.js';
import type { RateLimitStore } from './store.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** Time source used when a call passes no `nowMs` (default `Date.now`). */
  readonly clock?: Clock;
  /** Least time between two sweeps of expired keys (default 60 000 ms). */
  readonly sweepIntervalMs?: number;
}

interface Entry {
  readonly state: LimitState;
  /** When the state is back to "never used" and can be forgotten. */
  readonly expiresAt: number;
}

/** A {@link RateLimitStore} in this process's memory. */
export class MemoryStore implements RateLimitStore {
  readonly #entries = new Map<string, Entry>();
  readonly #clock: Clock;
  readonly #sweepIntervalMs: number;
  #nextSweepAt = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryStoreOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  }

  /** Number of keys held (expired ones included until the next sweep). */
  get size(): number {
    return this.#entries.size;
  }

  async decide(key: string, policy: LimitPolicy, nowMs?: number, cost = 1): Promise<Decision> {
    const now = this.#now(nowMs);
    const { state, decision } = decideLimit(this.#read(key, now), now, policy, cost);
    this.#write(key, state, now + decision.resetMs);
    return decision;
  }

  async peek(key: string, policy: LimitPolicy, nowMs?: number, cost = 1): Promise<Decision> {
    const now = this.#now(nowMs);
    return peekLimit(this.#read(key, now), now, policy, cost);
  }

  async observe(key: string, policy: LimitPolicy, remaining: number, nowMs?: number): Promise<Decision> {
    const now = this.#now(nowMs);
    const state = observeLimit(this.#read(key, now), now, policy, remaining);
    const decision = peekLimit(state, now, policy, 1);
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

  #read(key: string, now: number): LimitState | undefined {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.expiresAt > now ? entry.state : undefined;
  }

  #write(key: string, state: LimitState, expiresAt: number): void {
    this.#entries.set(key, { state, expiresAt });
  }

  #sweep(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(key);
    }
    this.#nextSweepAt = now + this.#sweepIntervalMs;
  }
}
