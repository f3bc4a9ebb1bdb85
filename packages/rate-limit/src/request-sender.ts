// Sends the calls of an openapi-fetch client so they survive production: a middleware plus the
// `fetch` the client sends with. Every attempt first waits for admission under the API's rate limit
// (when an admission is given), then runs under its own timeout and the caller's signal — one
// controller of its own, held by the timer and the caller's listener and handed to `fetch` directly
// (a signal combined with `AbortSignal.any` or followed through `new Request` can be garbage
// collected while the fetch still needs it), and the attempt settles when it aborts even if `fetch`
// never notices — and is read to the end (so a connection dropped mid-body is a failed attempt and the timeout
// covers the body). A 429 is resent after `Retry-After` or backoff, holding back the whole bucket;
// a 500, 503, 504, 408, dropped connection or timeout is resent with full-jitter backoff (never
// before `Retry-After`) when the method is idempotent or the call opted in. Every resend queues
// again at the front, so a retry never takes more than the limit allows. Reports each request,
// response, retry and queue wait with timings, and the timings of each call. Structurally typed:
// imports nothing from openapi-fetch. Not the limit model itself (`admission-queue.ts`).
import { type Clock, type Sleep, systemClock, systemSleep } from './clock.js';
import { RateLimitError } from './errors.js';
import { type BackoffOptions, fullJitterDelayMs, parseRetryAfter, retryDelayMs } from './retry-backoff.js';

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

/** An openapi-fetch middleware (register it last) and the `fetch` to create the client with. */
export interface RequestSender {
  onRequest(params: RequestHookParams): Promise<void>;
  onResponse(params: ResponseHookParams): Promise<Response | undefined>;
  onError(params: ErrorHookParams): Promise<Response | Error>;
  /** Sends one attempt of a request; give it to `createClient({ fetch })`. */
  readonly fetch: FetchLike;
  /** The timings of the call that ended in `outcome` (its final response or error), if this sender sent it. */
  timingOf(outcome: unknown): CallTiming | undefined;
}

/** Statuses a failed idempotent call is resent on. */
const retriedStatuses = new Set([408, 500, 503, 504]);
/** Methods resent after a failure without the call opting in. */
const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie']);

type Outcome = { readonly response: Response } | { readonly error: unknown };

interface Call {
  /** The request the client made: its signal is the caller's; held so that signal keeps following. */
  readonly origin: Request;
  readonly path: string | undefined;
  readonly send: FetchLike;
  readonly timeoutMs: number;
  readonly readBody: boolean;
  /** Failure retries this call may make (0 for a POST that did not opt in). */
  readonly maxFailureRetries: number;
  failureRetries: number;
  rateLimitRetries: number;
  template: Request | undefined;
  attempts: number;
  queueWaitMs: number;
  requestMs: number;
}

/**
 * The options a call adds to openapi-fetch's init (`client.GET(path, { timeout: 5000 })`);
 * openapi-fetch copies init keys a `Request` lacks onto the `Request`, where the sender reads them.
 */
interface CallSettings {
  readonly timeout?: unknown;
  readonly maxRetries?: unknown;
  readonly retryPost?: unknown;
}

const checkCount = (name: string, value: number, min: number): number => {
  if (Number.isInteger(value) && value >= min) return value;
  throw new RateLimitError('invalid_option', `${name} must be a whole number of at least ${min}.`, {
    context: { [name]: value },
  });
};

const nullBodyStatuses = new Set([101, 204, 205, 304]);

/** A copy of `response` whose body has been read to the end (under `signal`). */
async function readToEnd(response: Response, signal: AbortSignal): Promise<Response> {
  let body: ArrayBuffer | null = null;
  if (nullBodyStatuses.has(response.status)) await response.body?.cancel();
  else body = await response.arrayBuffer();
  signal.throwIfAborted();
  const copy = new Response(body, response);
  Object.defineProperty(copy, 'url', { value: response.url });
  return copy;
}

/** Node's codes of a refused, reset or timed-out connection (also on errors of other fetch libraries). */
const networkCode = /^(ECONN|EPIPE|ETIMEDOUT|EAI_AGAIN|UND_ERR)/;

/**
 * What kind of failure `error` is: `timeout` for the `TimeoutError` an attempt's timeout aborts
 * with, `connection` for a network failure (fetch rejects with a `TypeError` for those; other
 * fetch libraries' errors carry a connection error code), else `undefined` (a caller's abort, a
 * programming error), which is never retried.
 */
export const failureKind = (error: unknown): 'timeout' | 'connection' | undefined =>
  error instanceof DOMException && error.name === 'TimeoutError'
    ? 'timeout'
    : error instanceof TypeError || networkCode.test(String((error as { code?: unknown } | undefined)?.code))
      ? 'connection'
      : undefined;

/**
 * Creates a {@link RequestSender}.
 *
 * @throws RateLimitError `invalid_option` for a negative or fractional retry count or a timeout below 1 ms.
 */
export function createRequestSender(options: RequestSenderOptions = {}): RequestSender {
  const { admission, onEvent } = options;
  const clock = options.clock ?? systemClock;
  const sleep = options.sleep ?? systemSleep;
  const random = options.random ?? Math.random;
  const timeout = checkCount('timeout', options.timeout ?? 60_000, 1);
  const maxRetries = checkCount('maxRetries', options.maxRetries ?? 2, 0);
  const rateLimitRetries = checkCount('maxRetries', options.rateLimitRetries ?? 3, 0);
  const calls = new WeakMap<Request, Call>();
  const timings = new WeakMap<object, CallTiming>();
  const globalFetch: FetchLike = (request, init) => globalThis.fetch(request, init);

  const about = (request: Request, call: Call) => ({
    method: request.method,
    path: call.path,
    url: request.url,
    attempt: call.attempts,
  });

  const startCall = (request: Request, send: FetchLike, schemaPath?: string, parseAs?: string): Call => {
    const settings = request as Request & CallSettings;
    const retryFailures = idempotentMethods.has(request.method) || settings.retryPost === true;
    const callRetries =
      typeof settings.maxRetries === 'number' ? checkCount('maxRetries', settings.maxRetries, 0) : maxRetries;
    const call: Call = {
      origin: request,
      path: schemaPath,
      send,
      timeoutMs: typeof settings.timeout === 'number' ? checkCount('timeout', settings.timeout, 1) : timeout,
      readBody: parseAs !== 'stream',
      maxFailureRetries: retryFailures ? callRetries : 0,
      failureRetries: 0,
      rateLimitRetries: 0,
      template: undefined,
      attempts: 0,
      queueWaitMs: 0,
      requestMs: 0,
    };
    calls.set(request, call);
    return call;
  };

  const admit = async (request: Request, call: Call, first: boolean): Promise<void> => {
    if (admission === undefined) return;
    const since = clock();
    const waited = await admission.admit(request, { signal: request.signal, first });
    const waitMs = clock() - since;
    call.queueWaitMs += waitMs;
    if (waited) onEvent?.({ type: 'throttle-wait', ...about(request, call), waitMs });
  };

  /**
   * One attempt under its own controller, aborted by its timeout or the caller's signal; settles
   * with the abort reason as soon as either fires, until the body is read.
   */
  const attempt = async (request: Request, call: Call): Promise<Response> => {
    call.attempts += 1;
    if (onEvent !== undefined) {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = secretHeaders.has(name) ? '[redacted]' : value;
      });
      onEvent({ type: 'request', ...about(request, call), queueWaitMs: call.queueWaitMs, headers });
    }
    const callerSignal = call.origin.signal;
    const controller = new AbortController();
    let fail: (reason: unknown) => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      fail = reject;
    });
    const abort = (reason: unknown) => {
      controller.abort(reason);
      fail(reason);
    };
    // Real time, whatever clock schedules: the timeout is about the network, not the limit model.
    const timeoutMs = call.timeoutMs;
    const alarm = setTimeout(
      () => abort(new DOMException(`no complete response within ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
    const onCallerAbort = () => abort(callerSignal.reason);
    if (callerSignal.aborted) onCallerAbort();
    else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
    const started = clock();
    try {
      const answer = await Promise.race([call.send(request, { signal: controller.signal }), aborted]);
      const response = call.readBody
        ? await Promise.race([readToEnd(answer, controller.signal), aborted])
        : answer;
      const durationMs = clock() - started;
      onEvent?.({ type: 'response', ...about(request, call), status: response.status, durationMs });
      await admission?.observe(call.origin, response);
      return response;
    } catch (error) {
      // Once aborted, the abort's reason (the caller's, else the timeout) whatever fetch reported.
      throw controller.signal.aborted ? controller.signal.reason : error;
    } finally {
      call.requestMs += clock() - started;
      clearTimeout(alarm);
      admission?.finished(call.origin);
      // A streamed body stays under the caller's signal until it aborts.
      if (call.readBody) callerSignal.removeEventListener('abort', onCallerAbort);
    }
  };

  /** Why and after how long `outcome` is retried, or `undefined` when it is final. */
  const retryOf = (request: Request, call: Call, outcome: Outcome) => {
    if (request.signal.aborted || call.template === undefined) return undefined;
    let reason: RetryReason | undefined;
    let status: number | undefined;
    let retryAfterMs: number | undefined;
    if ('response' in outcome) {
      status = outcome.response.status;
      retryAfterMs = parseRetryAfter(outcome.response.headers.get('Retry-After'), clock());
      if (status === 429 && call.rateLimitRetries < rateLimitRetries) {
        const delayMs = retryDelayMs(call.rateLimitRetries++, retryAfterMs, options.rateLimitBackoff, random);
        return { reason: 'rate_limited' as const, status, delayMs };
      }
      if (retriedStatuses.has(status)) reason = 'status';
    } else reason = failureKind(outcome.error);
    if (reason === undefined || call.failureRetries >= call.maxFailureRetries) return undefined;
    const delayMs = fullJitterDelayMs(call.failureRetries++, retryAfterMs, options.backoff, random);
    return { reason, status, delayMs };
  };

  /** Resends while the outcome is worth retrying; resolves to the final outcome. */
  const settle = async (request: Request, call: Call, first: Outcome): Promise<Outcome> => {
    let outcome = first;
    if (call.attempts === 0) {
      // The first attempt was sent by the client's own fetch: count it and read its headers.
      call.attempts = 1;
      if ('response' in outcome) await admission?.observe(request, outcome.response);
      admission?.finished(request);
    }
    for (let retry = retryOf(request, call, outcome); retry; retry = retryOf(request, call, outcome)) {
      onEvent?.({ type: 'retry', ...about(request, call), ...retry });
      // Free the refused response's body unless another middleware is reading it.
      if ('response' in outcome && outcome.response.body?.locked === false)
        await outcome.response.body.cancel();
      try {
        if (retry.reason === 'rate_limited' && admission !== undefined) {
          admission.pause(request, clock() + retry.delayMs);
        } else {
          await sleep(retry.delayMs, request.signal);
          request.signal.throwIfAborted();
        }
        await admit(request, call, true);
        outcome = { response: await attempt((call.template as Request).clone(), call) };
      } catch (error) {
        outcome = { error };
      }
    }
    const final = 'response' in outcome ? outcome.response : outcome.error;
    if (typeof final === 'object' && final !== null) {
      timings.set(final, {
        attempts: call.attempts,
        queueWaitMs: call.queueWaitMs,
        requestMs: call.requestMs,
      });
    }
    return outcome;
  };

  const sender: RequestSender = {
    async onRequest({ request, schemaPath, options: clientOptions }) {
      const clientFetch = clientOptions?.fetch === sender.fetch ? undefined : clientOptions?.fetch;
      const call = startCall(
        request,
        options.fetch ?? clientFetch ?? globalFetch,
        schemaPath,
        clientOptions?.parseAs,
      );
      await admit(request, call, false);
      // Bodies can be read once: keep an unread copy in case the request is sent again.
      if (rateLimitRetries > 0 || call.maxFailureRetries > 0) call.template = request.clone();
    },
    async onResponse({ request, response }) {
      const call = calls.get(request);
      if (call === undefined) return undefined;
      const outcome = await settle(request, call, { response });
      if ('error' in outcome) throw outcome.error;
      return outcome.response === response ? undefined : outcome.response;
    },
    async onError({ request, error }) {
      const call = calls.get(request);
      const outcome = call === undefined ? { error } : await settle(request, call, { error });
      if ('response' in outcome) return outcome.response;
      if (outcome.error instanceof Error) return outcome.error;
      throw outcome.error;
    },
    async fetch(request) {
      let call = calls.get(request);
      if (call === undefined) {
        // Sent by another middleware (a resend after a 401): it waits its turn like any other.
        call = startCall(request, options.fetch ?? globalFetch);
        await admit(request, call, true);
      }
      return attempt(request, call);
    },
    timingOf(outcome) {
      return typeof outcome === 'object' && outcome !== null ? timings.get(outcome) : undefined;
    },
  };
  return sender;
}
