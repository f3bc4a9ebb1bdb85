// The state of one request sender (a record its functions take: its settings, the calls it is
// sending and the timings of the ended ones) and of each call, started when the client hands the
// sender a request, and waiting for admission under the rate limit. Sending an attempt is
// attempt.ts's, resending retries.ts's.
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
