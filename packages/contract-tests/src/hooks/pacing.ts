// Pacing against a server other than our mock, where every transaction spends one shared budget:
// once the API's rate-limit headers say the budget is nearly spent, the next call waits for it to
// come back (a bucket: two units' refill time; a fixed window: the whole window), and after a 429
// at least its Retry-After. A server that sends no rate-limit headers is not paced.
import {
  apiLimits,
  type HeaderSource,
  readRemaining,
  refillPerSecond,
  systemSleep,
} from '@mall-api/rate-limit';
import type { ApiName } from '@mall-api/spec-model';

/** The pause the next call should wait, learnt from the answers so far. */
export interface Pacing {
  /** Reads one answer's status and headers. */
  observe(statusCode: number, headers: HeaderSource): void;
  /** Waits the pause learnt, if any, and clears it. */
  wait(): Promise<void>;
}

/** Waits `ms` milliseconds (or, against a mock with a controllable clock, moves its clock that far). */
export type Sleep = (ms: number) => Promise<void>;

/** Pacing under `api`'s rate limit, waiting with `sleep`. */
export function createPacing(api: ApiName, sleep: Sleep = systemSleep): Pacing {
  const { policy } = apiLimits[api];
  const recoveryMs = policy.kind === 'fixed-window' ? policy.windowMs : (2 * 1000) / refillPerSecond(policy);
  let pauseMs = 0;
  return {
    observe(statusCode, headers) {
      const remaining = readRemaining(headers);
      const retryAfter = Number(headers.get('retry-after'));
      const afterLimit = statusCode === 429 && Number.isFinite(retryAfter) ? retryAfter * 1000 : 0;
      const nearlySpent = remaining !== undefined && remaining <= 1 ? recoveryMs : 0;
      pauseMs = Math.max(pauseMs, afterLimit, nearlySpent);
    },
    async wait() {
      if (pauseMs <= 0) return;
      const ms = pauseMs;
      pauseMs = 0;
      await sleep(ms);
    },
  };
}
