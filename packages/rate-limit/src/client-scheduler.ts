// Client-side rate limiting as an openapi-fetch middleware: before a request is sent it waits for
// a slot in a local model of the API's bucket (queueing, never failing), keeps that model in step
// with the rate-limit headers of every response (other apps share the server's bucket), and
// resends a 429 with bounded exponential backoff that honours `Retry-After`. With a Redis store the
// model is shared, so N workers together stay under the limit. Structurally typed: it imports
// nothing from openapi-fetch. Not for servers; see `server-limiter.ts`.
import { createAdmissionQueue } from './admission-queue.js';
import { type ApiLimit, type ApiName, resolveApiLimit } from './api-limits.js';
import { type Clock, type Sleep, systemClock, systemSleep } from './clock.js';
import { RateLimitError } from './errors.js';
import { MemoryStore } from './memory-store.js';
import type { LimitPolicy } from './policy.js';
import { checkPolicy } from './policy.js';
import { readRemaining } from './rate-limit-headers.js';
import { type BackoffOptions, parseRetryAfter, retryDelayMs } from './retry-backoff.js';
import type { RateLimitStore } from './store.js';

/** The `fetch` used to resend a request. */
export type FetchLike = (request: Request) => Promise<Response>;

/** What the middleware reads from openapi-fetch's `onRequest` parameters. */
export interface RequestHookParams {
  readonly request: Request;
}

/** What the middleware reads from openapi-fetch's `onResponse` parameters. */
export interface ResponseHookParams {
  readonly request: Request;
  readonly response: Response;
  /** The client's options; its `fetch` resends when no `fetch` option was given. */
  readonly options?: { readonly fetch?: FetchLike };
}

/** Options of {@link createRateLimitMiddleware} whatever it schedules for. */
export interface RateLimitMiddlewareCommonOptions {
  /**
   * Where the local model lives (default: a new {@link MemoryStore}). Give every worker a
   * `RedisStore` on the same Redis (and the same `key`) to schedule them together.
   */
  readonly store?: RateLimitStore;
  /** Time source (default `Date.now`); when given it is also passed to the store. */
  readonly clock?: Clock;
  /** How to wait (default: real timers). Pair a simulated `clock` with a simulated `sleep`. */
  readonly sleep?: Sleep;
  /** Times a 429 is resent before it is handed back (default 3). */
  readonly maxRetries?: number;
  /** The bucket a request belongs to: a fixed name or one derived from the request (default `default`). */
  readonly key?: string | ((request: Request) => string);
  /** Resends 429s (default: the client's `fetch`, else `globalThis.fetch`). */
  readonly fetch?: FetchLike;
  /** Backoff of 429 retries (default 500 ms doubling, capped at 30 s). */
  readonly backoff?: BackoffOptions;
  /** Jitter source in [0, 1) (default `Math.random`). */
  readonly random?: () => number;
}

/** Schedule for one of the mall APIs, or for a custom API limit. */
export interface ApiMiddlewareOptions extends RateLimitMiddlewareCommonOptions {
  readonly api: ApiName | ApiLimit;
  readonly policy?: undefined;
}

/** Schedule for a bare policy; the rate-limit headers of responses are still read generically. */
export interface PolicyMiddlewareOptions extends RateLimitMiddlewareCommonOptions {
  readonly policy: LimitPolicy;
  readonly api?: undefined;
}

/** Options of {@link createRateLimitMiddleware}: one of the mall APIs, or a bare policy. */
export type RateLimitMiddlewareOptions = ApiMiddlewareOptions | PolicyMiddlewareOptions;

/** An openapi-fetch middleware (register it with `client.use(...)`) plus a scheduling query. */
export interface RateLimitMiddleware {
  /** Waits for a slot (rejects with the abort reason if the request's signal aborts), then keeps a copy for retries. */
  onRequest(params: RequestHookParams): Promise<void>;
  /** Syncs the local model with the response headers and resends 429s; returns the final response if it changed. */
  onResponse(params: ResponseHookParams): Promise<Response | undefined>;
  /** The API limit it schedules for. */
  readonly api: ApiLimit;
  /** Ms until a request for `key` (default: the configured fixed key) would be sent, without consuming. */
  timeUntilAdmitted(key?: string): Promise<number>;
}

/**
 * Creates the rate-limit middleware for an openapi-fetch client. Register it last (after auth and
 * other middleware that change the request) so the copy kept for retries is the request as sent.
 *
 * @throws RateLimitError `invalid_policy` for an unusable policy, `invalid_option` for a bad `maxRetries`.
 */
export function createRateLimitMiddleware(options: RateLimitMiddlewareOptions): RateLimitMiddleware {
  const api: ApiLimit =
    options.api !== undefined
      ? resolveApiLimit(options.api)
      : { name: options.policy.kind, policy: options.policy, headers: {} };
  const invalid = checkPolicy(api.policy);
  if (invalid !== undefined) throw invalid;
  const maxRetries = options.maxRetries ?? 3;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new RateLimitError('invalid_option', 'maxRetries must be a whole number of at least 0.', {
      context: { maxRetries },
    });
  }
  const injectedClock = options.clock;
  const clock = injectedClock ?? systemClock;
  const sleep = options.sleep ?? systemSleep;
  const store = options.store ?? new MemoryStore({ clock });
  const random = options.random ?? Math.random;
  const storeTime = (): number | undefined => injectedClock?.();
  const queue = createAdmissionQueue({ store, policy: api.policy, clock, storeTime, sleep });
  const templates = new WeakMap<Request, Request>();

  const storeKey = (key: string): string => `${api.name}:${key}`;
  const keyOf = (request: Request): string => {
    const { key } = options;
    return storeKey(typeof key === 'function' ? key(request) : (key ?? 'default'));
  };

  /** Raises the local usage to what the server reported (a 429 without headers means "full"). */
  const sync = async (key: string, response: Response): Promise<void> => {
    const remaining = readRemaining(response.headers) ?? (response.status === 429 ? 0 : undefined);
    if (remaining !== undefined) await store.observe(key, api.policy, remaining, storeTime());
  };

  return {
    api,
    async onRequest({ request }) {
      await queue.admit(keyOf(request), { signal: request.signal });
      // Bodies can be read once: keep an unread copy in case the server answers 429.
      if (maxRetries > 0) templates.set(request, request.clone());
    },
    async onResponse({ request, response, options: clientOptions }) {
      const key = keyOf(request);
      const template = templates.get(request);
      templates.delete(request);
      await sync(key, response);
      const send = options.fetch ?? clientOptions?.fetch ?? ((next: Request) => globalThis.fetch(next));
      let current = response;
      for (
        let attempt = 0;
        current.status === 429 && template !== undefined && attempt < maxRetries;
        attempt++
      ) {
        const retryAfterMs = parseRetryAfter(current.headers.get('Retry-After'), clock());
        queue.pause(key, clock() + retryDelayMs(attempt, retryAfterMs, options.backoff, random));
        // Free the refused response's body unless another middleware is reading it.
        if (current.body !== null && !current.body.locked) await current.body.cancel();
        await queue.admit(key, { signal: request.signal, first: true });
        current = await send(template.clone());
        await sync(key, current);
      }
      return current === response ? undefined : current;
    },
    timeUntilAdmitted(key) {
      return queue.timeUntilAdmitted(
        storeKey(key ?? (typeof options.key === 'string' ? options.key : 'default')),
      );
    },
  };
}
