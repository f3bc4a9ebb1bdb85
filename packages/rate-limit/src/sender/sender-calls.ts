// The state of one request sender (a record its functions take: its settings, the calls it is
// sending and the timings of the ended ones) and of each call, started when the client hands the
// sender a request; a call's wait for admission under the rate limit, and one attempt: sent under
// its own controller, aborted by its timeout (real time) or the caller's signal, settling with the
// abort reason as soon as either fires, and read to the end unless the client streams the body.
// Resending is retries.ts's.
import type { Clock, Sleep } from '../clock.js';
import { RateLimitError } from '../errors.js';
import type { Admission, CallTiming, FetchLike, RequestSenderOptions, SendEvent } from './sender-types.js';

/** What a sender decides with, built once by `createRequestSender`. */
export interface SenderState {
  readonly options: RequestSenderOptions;
  readonly admission: Admission | undefined;
  readonly onEvent: ((event: SendEvent) => void) | undefined;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly rateLimitRetries: number;
  readonly calls: WeakMap<Request, Call>;
  readonly timings: WeakMap<object, CallTiming>;
}

/** Methods resent after a failure without the call opting in. */
const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** One call: its attempts, retries and timings so far. */
export interface Call {
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

/** `value` when it is a whole number of at least `min`; else an `invalid_option` error. */
export const checkCount = (name: string, value: number, min: number): number => {
  if (Number.isInteger(value) && value >= min) return value;
  throw new RateLimitError('invalid_option', `${name} must be a whole number of at least ${min}.`, {
    context: { [name]: value },
  });
};

/** What every event tells about an attempt of `call`. */
export const about = (request: Request, call: Call) => ({
  method: request.method,
  path: call.path,
  url: request.url,
  attempt: call.attempts,
});

/** Starts the call of `request`, sent with `send`, reading its call settings. */
export function startCall(
  state: SenderState,
  request: Request,
  send: FetchLike,
  schemaPath?: string,
  parseAs?: string,
): Call {
  const settings = request as Request & CallSettings;
  const retryFailures = idempotentMethods.has(request.method) || settings.retryPost === true;
  const callRetries =
    typeof settings.maxRetries === 'number'
      ? checkCount('maxRetries', settings.maxRetries, 0)
      : state.maxRetries;
  const call: Call = {
    origin: request,
    path: schemaPath,
    send,
    timeoutMs:
      typeof settings.timeout === 'number' ? checkCount('timeout', settings.timeout, 1) : state.timeout,
    readBody: parseAs !== 'stream',
    maxFailureRetries: retryFailures ? callRetries : 0,
    failureRetries: 0,
    rateLimitRetries: 0,
    template: undefined,
    attempts: 0,
    queueWaitMs: 0,
    requestMs: 0,
  };
  state.calls.set(request, call);
  return call;
}

/** Waits for admission of `request` under the rate limit (when the sender has an admission). */
export async function admit(state: SenderState, request: Request, call: Call, first: boolean): Promise<void> {
  const { admission, clock } = state;
  if (admission === undefined) return;
  const since = clock();
  const waited = await admission.admit(request, { signal: request.signal, first });
  const waitMs = clock() - since;
  call.queueWaitMs += waitMs;
  if (waited) state.onEvent?.({ type: 'throttle-wait', ...about(request, call), waitMs });
}

const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie']);
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

/**
 * One attempt under its own controller, aborted by its timeout or the caller's signal; settles
 * with the abort reason as soon as either fires, until the body is read.
 */
export async function attempt(state: SenderState, request: Request, call: Call): Promise<Response> {
  const { onEvent, clock, admission } = state;
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
}
