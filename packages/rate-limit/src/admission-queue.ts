// Waiting for a slot instead of failing: a first-in-first-out queue per key of calls waiting to be
// admitted under a policy. Only the head of a queue talks to the store; when refused it sleeps
// exactly `retryAfterMs` and asks again, so nothing is consumed until a call is sent. A call whose
// signal aborts leaves the queue at once (rejecting with the abort reason) and its place goes to
// the next; `pause` holds a key back (a server said Retry-After), and a `holdAfter` admission holds
// it until `release` (one call alone while the caller learns the server's state). The admission
// says whether the call had to wait (queued behind others, refused, paused or held). Not for HTTP:
// the client middleware puts requests through it.
import type { Clock, Sleep } from './clock.js';
import type { Decision, LimitPolicy } from './policy.js';
import type { RateLimitStore } from './store.js';

/** What an {@link AdmissionQueue} needs. */
export interface AdmissionQueueOptions {
  readonly store: RateLimitStore;
  /** The policy, or the policy of each key. */
  readonly policy: LimitPolicy | ((key: string) => LimitPolicy);
  /**
   * Ms to hold `key` back after admitting a call (0 or absent: none), until {@link
   * AdmissionQueue.release} or that time, whichever comes first; asked at each admission.
   */
  readonly holdAfter?: (key: string) => number;
  /** Local time, for pauses. */
  readonly clock: Clock;
  /** Time passed to the store; `undefined` lets the store use its own (Redis `TIME`). */
  readonly storeTime: () => number | undefined;
  readonly sleep: Sleep;
}

/** Options of one {@link AdmissionQueue.admit} call. */
export interface AdmitOptions {
  /** Aborting it takes the call out of the queue and rejects with `signal.reason`. */
  readonly signal?: AbortSignal | undefined;
  /** Units the call costs (default 1). */
  readonly cost?: number;
  /** Queue at the front (a retry that already waited its turn). */
  readonly first?: boolean;
}

/** The store's decision for an admitted call, and whether the call had to wait for it. */
export interface Admitted extends Decision {
  /** The call queued behind others, or its key was full or paused when it came first. */
  readonly waited: boolean;
}

/** Per-key FIFO admission under one policy. */
export interface AdmissionQueue {
  /** Resolves with the store's decision once the call is admitted (its units consumed). */
  admit(key: string, options?: AdmitOptions): Promise<Admitted>;
  /** Admits nothing for `key` before `untilMs` (local clock). */
  pause(key: string, untilMs: number): void;
  /** Ends the hold a `holdAfter` admission put on `key` (pauses stay). */
  release(key: string): void;
  /** Ms until a call for `key` would be admitted, pause included, without consuming. */
  timeUntilAdmitted(key: string, cost?: number): Promise<number>;
  /** Calls waiting for `key`. */
  waiting(key: string): number;
}

interface Waiter {
  readonly cost: number;
  readonly signal: AbortSignal | undefined;
  /** Set once the waiter queues behind another or is held back as the head. */
  waited: boolean;
  readonly resolve: (decision: Admitted) => void;
  readonly reject: (reason: unknown) => void;
  readonly onAbort: () => void;
}

interface Lane {
  readonly waiters: Waiter[];
  pumping: boolean;
  /** Aborted to cut the head's sleep short when the head leaves. */
  wake: AbortController | undefined;
}

/** Creates an {@link AdmissionQueue}. */
export function createAdmissionQueue(options: AdmissionQueueOptions): AdmissionQueue {
  const { store, clock, storeTime, sleep, holdAfter } = options;
  const policyOf = (key: string): LimitPolicy =>
    typeof options.policy === 'function' ? options.policy(key) : options.policy;
  const lanes = new Map<string, Lane>();
  const pausedUntil = new Map<string, number>();
  const heldUntil = new Map<string, number>();

  const leave = (lane: Lane, waiter: Waiter): void => {
    const index = lane.waiters.indexOf(waiter);
    if (index >= 0) lane.waiters.splice(index, 1);
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    if (index === 0) lane.wake?.abort();
  };

  const left = (until: Map<string, number>, key: string): number => {
    const at = until.get(key);
    if (at === undefined) return 0;
    const ms = at - clock();
    if (ms <= 0) until.delete(key);
    return Math.max(0, ms);
  };
  const pauseLeft = (key: string): number => Math.max(left(pausedUntil, key), left(heldUntil, key));

  const nap = async (lane: Lane, ms: number): Promise<void> => {
    const wake = new AbortController();
    lane.wake = wake;
    try {
      await sleep(Math.max(1, Math.ceil(ms)), wake.signal);
    } catch {
      // A sleep may reject when woken early; either way the loop looks again.
    } finally {
      lane.wake = undefined;
    }
  };

  const pump = async (key: string, lane: Lane): Promise<void> => {
    if (lane.pumping) return;
    lane.pumping = true;
    try {
      for (let head = lane.waiters[0]; head !== undefined; head = lane.waiters[0]) {
        const pause = pauseLeft(key);
        if (pause > 0) {
          head.waited = true;
          await nap(lane, pause);
          continue;
        }
        let decision: Decision;
        try {
          decision = await store.decide(key, policyOf(key), storeTime(), head.cost);
        } catch (error) {
          leave(lane, head);
          head.reject(error);
          continue;
        }
        if (!decision.allowed) {
          head.waited = true;
          await nap(lane, decision.retryAfterMs);
          continue;
        }
        // The head may have aborted while the store answered: its slot goes to the next in line.
        const taker = lane.waiters[0];
        if (taker !== undefined && taker.cost === head.cost) {
          const hold = holdAfter?.(key) ?? 0;
          if (hold > 0) heldUntil.set(key, clock() + hold);
          leave(lane, taker);
          taker.resolve({ ...decision, waited: taker.waited });
        }
      }
    } finally {
      lane.pumping = false;
      if (lane.waiters.length === 0) lanes.delete(key);
    }
  };

  return {
    admit(key, admitOptions = {}) {
      const { signal, cost = 1, first = false } = admitOptions;
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<Admitted>((resolve, reject) => {
        let lane = lanes.get(key);
        if (lane === undefined) {
          lane = { waiters: [], pumping: false, wake: undefined };
          lanes.set(key, lane);
        }
        const current = lane;
        const waiter: Waiter = {
          cost,
          signal,
          waited: current.waiters.length > 0,
          resolve,
          reject,
          onAbort: () => {
            leave(current, waiter);
            reject(signal?.reason);
          },
        };
        signal?.addEventListener('abort', waiter.onAbort, { once: true });
        if (first) current.waiters.unshift(waiter);
        else current.waiters.push(waiter);
        void pump(key, current);
      });
    },
    pause(key, untilMs) {
      pausedUntil.set(key, Math.max(untilMs, pausedUntil.get(key) ?? untilMs));
    },
    release(key) {
      if (heldUntil.delete(key)) lanes.get(key)?.wake?.abort();
    },
    async timeUntilAdmitted(key, cost = 1) {
      const decision = await store.peek(key, policyOf(key), storeTime(), cost);
      return Math.max(pauseLeft(key), decision.retryAfterMs);
    },
    waiting(key) {
      return lanes.get(key)?.waiters.length ?? 0;
    },
  };
}
