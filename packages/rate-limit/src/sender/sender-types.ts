// The public types of the request sender (request-sender.ts): the `fetch` it sends with, what its
// middleware reads from openapi-fetch's hooks, the admission it waits for under a rate limit, the
// events it reports, a call's timings and its options. Types only; no behaviour lives here.
import type { Clock, Sleep } from '../clock.js';
import type { BackoffOptions } from '../retry-backoff.js';

/**
 * The `fetch` a request is sent with; `init.signal` (when given) aborts the attempt and takes the
 * place of `request.signal`.
 */
export type FetchLike = (request: Request, init?: { readonly signal?: AbortSignal }) => Promise<Response>;

/** What the middleware reads from openapi-fetch's `onRequest` parameters. */
export interface RequestHookParams {
  readonly request: Request;
  /** The path template (`/api/v2/admin/products/{product_no}`). */
  readonly schemaPath?: string;
  /** The client's options: `parseAs: 'stream'` leaves the body unread; its `fetch` resends when none was given. */
  readonly options?: { readonly fetch?: FetchLike; readonly parseAs?: string };
}

/** What the middleware reads from openapi-fetch's `onResponse` parameters. */
export interface ResponseHookParams extends RequestHookParams {
  readonly response: Response;
}

/** What the middleware reads from openapi-fetch's `onError` parameters. */
export interface ErrorHookParams extends RequestHookParams {
  readonly error: unknown;
}

/** Waiting for a slot under a rate limit; see `createRateLimitMiddleware`. */
export interface Admission {
  /**
   * Resolves once `request` may be sent, to whether it had to wait (queued, refused or paused);
   * rejects with the abort reason when `signal` aborts.
   */
  admit(
    request: Request,
    options: { readonly signal: AbortSignal; readonly first: boolean },
  ): Promise<boolean>;
  /** Sends nothing more of `request`'s bucket before `untilMs` (a 429's `Retry-After`). */
  pause(request: Request, untilMs: number): void;
  /** Brings the model in step with the rate-limit headers of `response`. */
  observe(request: Request, response: Response): Promise<void>;
  /** The attempt admitted for `request` has ended, answered (after `observe`) or not. */
  finished(request: Request): void;
}

/** Why a request is sent again. */
export type RetryReason = 'rate_limited' | 'status' | 'connection' | 'timeout';

/** What every event tells about the call. */
export interface SendEventBase {
  readonly method: string;
  /** The path template the call was made with, when known. */
  readonly path: string | undefined;
  readonly url: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
}

/** What happened to a call, with timings in ms. Never carries credentials. */
export type SendEvent =
  | (SendEventBase & {
      readonly type: 'request';
      /** Time spent waiting in the rate-limit queue so far. */
      readonly queueWaitMs: number;
      /** The request's headers, credentials replaced by `[redacted]`. */
      readonly headers: Readonly<Record<string, string>>;
    })
  | (SendEventBase & { readonly type: 'response'; readonly status: number; readonly durationMs: number })
  | (SendEventBase & {
      readonly type: 'retry';
      readonly reason: RetryReason;
      /** The status that is retried, for `rate_limited` and `status`. */
      readonly status: number | undefined;
      readonly delayMs: number;
    })
  | (SendEventBase & { readonly type: 'throttle-wait'; readonly waitMs: number });

/** How long a call took, attempts together. */
export interface CallTiming {
  readonly attempts: number;
  /** Time spent waiting in the rate-limit queue (and for a 429's `Retry-After`). */
  readonly queueWaitMs: number;
  /** Time spent sending and reading, all attempts, not counting queue waits and backoff. */
  readonly requestMs: number;
}

/** Options of {@link createRequestSender}. */
export interface RequestSenderOptions {
  /** Admission under a rate limit; without it requests are sent at once and 429s resent after backoff only. */
  readonly admission?: Admission;
  readonly clock?: Clock;
  readonly sleep?: Sleep;
  /** Jitter source in [0, 1) (default `Math.random`). */
  readonly random?: () => number;
  /** Sends requests (default: the client's `fetch`, else `globalThis.fetch`). */
  readonly fetch?: FetchLike;
  /**
   * Ms an attempt may take, until its body is read (default 60 000), in real time whatever `clock`
   * says. A call may set its own `timeout`.
   */
  readonly timeout?: number;
  /** Times a failed call is resent (default 2). A call may set its own `maxRetries`. */
  readonly maxRetries?: number;
  /** Backoff of failure retries (default 500 ms doubling, capped at 8 s, full jitter). */
  readonly backoff?: BackoffOptions;
  /** Times a 429 is resent (default 3). */
  readonly rateLimitRetries?: number;
  /** Backoff of 429 retries (default 500 ms doubling, capped at 30 s, plus jitter). */
  readonly rateLimitBackoff?: BackoffOptions;
  /** Receives every {@link SendEvent}. */
  readonly onEvent?: (event: SendEvent) => void;
}
