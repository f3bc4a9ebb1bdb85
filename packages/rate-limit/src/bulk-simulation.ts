// Bulk calls through the real client scheduler against the real server limiter, in simulated
// time: a server whose clock runs `skewMs` off the client's and whose every request and answer
// take a simulated network time, optionally after calls another process made. Reports the 429s
// the server sent (retried and hidden from the caller) and the time the calls took against the
// least the limit allows. Used by the scheduler's tests and by `bench/bulk-fetch.mjs` for runs too
// long for real time; exported as `@mall-api/rate-limit/simulation`, never imported by a client.
import { type ApiName, resolveApiLimit } from './api-limits.js';
import { createRateLimitMiddleware } from './client-scheduler.js';
import { manualClock } from './clock.js';
import { policyLimit, refillPerSecond } from './policy.js';
import type { FetchLike } from './request-sender.js';
import { createServerLimiter } from './server-limiter.js';

/** One simulated bulk run. */
export interface BulkSimulation {
  readonly api: ApiName;
  /** Calls fired at once. */
  readonly calls: number;
  /** Ms the server's clock is ahead of the client's (negative: behind). */
  readonly skewMs?: number;
  /** Ms one way of one request takes, drawn per way (default 0). */
  readonly latencyMs?: () => number;
  /** Calls another process made, evenly over the `othersSpanMs` before the run (default 0). */
  readonly othersBefore?: number;
  readonly othersSpanMs?: number;
}

/** What a simulated bulk run measured. */
export interface BulkOutcome {
  /** 429s the server sent. */
  readonly tooMany: number;
  /** Ms from the first call to the last answer. */
  readonly elapsedMs: number;
  /** The least ms the limit allows for the calls after its first burst, from an unused limit. */
  readonly minimumMs: number;
  /** Every call's final status. */
  readonly statuses: readonly number[];
}

/**
 * The least time `calls` fired at once take under `api`'s limit from an unused state: a sliding
 * log admits call k > limit a window after call k - limit; a bucket admits its capacity at once,
 * then at its rate.
 */
export function minimumBulkMs(api: ApiName, calls: number): number {
  const { policy } = resolveApiLimit(api);
  const burst = policyLimit(policy);
  if (calls <= burst) return 0;
  return policy.kind === 'sliding-log' || policy.kind === 'fixed-window'
    ? Math.floor((calls - 1) / burst) * policy.windowMs
    : ((calls - burst) / refillPerSecond(policy)) * 1000;
}

/** Runs a {@link BulkSimulation}. */
export async function simulateBulk(run: BulkSimulation): Promise<BulkOutcome> {
  const clock = manualClock(Date.UTC(2026, 0, 1));
  const skewMs = run.skewMs ?? 0;
  const latency = run.latencyMs ?? (() => 0);
  const limiter = createServerLimiter({ api: run.api, clock: () => clock.now() + skewMs });
  let tooMany = 0;
  const others = run.othersBefore ?? 0;
  for (let i = 0; i < others; i++) {
    await limiter.take('app');
    clock.advance((run.othersSpanMs ?? 0) / others);
  }
  const fetch: FetchLike = async () => {
    await clock.sleep(latency());
    const result = await limiter.take('app');
    if (result.status === 429) tooMany += 1;
    await clock.sleep(latency());
    return new Response(JSON.stringify(result.body ?? {}), {
      status: result.status,
      headers: result.headers,
    });
  };
  const middleware = createRateLimitMiddleware({
    api: run.api,
    clock: clock.now,
    sleep: clock.sleep,
    fetch,
    maxRetries: 10,
  });
  const started = clock.now();
  const statuses = await clock.run(
    Promise.all(
      Array.from({ length: run.calls }, async (_, i) => {
        const request = new Request(`https://mall.example/call/${i}`);
        const params = { request, schemaPath: '/call', options: { fetch: middleware.fetch } };
        await middleware.onRequest(params);
        const response = await middleware.fetch(request);
        return ((await middleware.onResponse({ ...params, response })) ?? response).status;
      }),
    ),
  );
  return {
    tooMany,
    elapsedMs: clock.now() - started,
    minimumMs: minimumBulkMs(run.api, run.calls),
    statuses,
  };
}
