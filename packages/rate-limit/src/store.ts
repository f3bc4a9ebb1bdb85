// The one interface every rate-limit store implements (memory, Redis): decide for a key under a
// policy atomically, look without consuming, and sync with a server's reported budget. Interface
// only; implementations are `memory-store.ts` and `redis-store.ts`.
import type { Decision, LimitPolicy } from './policy.js';

/**
 * Where limiter states live. Every method is atomic per key: concurrent calls for one key never
 * admit more than the policy allows together. `nowMs` is optional; without it the store uses its
 * own time source (the memory store its clock, the Redis store the Redis server's `TIME`).
 */
export interface RateLimitStore {
  /** Admits a call of `cost` (default 1) for `key` and consumes it, or refuses it without change. */
  decide(key: string, policy: LimitPolicy, nowMs?: number, cost?: number): Promise<Decision>;
  /**
   * Answers without consuming: `allowed` says whether a call of `cost` would be admitted now and
   * `retryAfterMs` how long to wait otherwise.
   */
  peek(key: string, policy: LimitPolicy, nowMs?: number, cost?: number): Promise<Decision>;
  /**
   * Raises the usage recorded for `key` so that at most `remaining` units remain (a server said
   * so); never lowers it. Returns the state afterwards as a `peek` of cost 1 would.
   */
  observe(key: string, policy: LimitPolicy, remaining: number, nowMs?: number): Promise<Decision>;
}
