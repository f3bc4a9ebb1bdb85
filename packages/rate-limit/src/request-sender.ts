// Sends the calls of an openapi-fetch client so they survive production: a middleware plus the
// `fetch` the client sends with. Each attempt waits for admission under the API's rate limit, runs
// under its own timeout and the caller's signal and is read to the end (sender-calls.ts); 429s and
// failures are resent under the same queue (retries.ts). Reports each request, response, retry and
// queue wait, and the timings of each call. Structurally typed: imports nothing from openapi-fetch.
// Not the limit model itself (`admission-queue.ts`).
import { systemClock, systemSleep } from './clock.js';
import { failureKind, settle } from './sender/retries.js';
import { admit, attempt, checkCount, type SenderState, startCall } from './sender/sender-calls.js';
import type {
  CallTiming,
  ErrorHookParams,
  FetchLike,
  RequestHookParams,
  RequestSenderOptions,
  ResponseHookParams,
} from './sender/sender-types.js';

export type * from './sender/sender-types.js';
export { failureKind };

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

const globalFetch: FetchLike = (request, init) => globalThis.fetch(request, init);

/**
 * Creates a {@link RequestSender}.
 *
 * @throws RateLimitError `invalid_option` for a negative or fractional retry count or a timeout below 1 ms.
 */
export function createRequestSender(options: RequestSenderOptions = {}): RequestSender {
  const state: SenderState = {
    options,
    admission: options.admission,
    onEvent: options.onEvent,
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? systemSleep,
    random: options.random ?? Math.random,
    timeout: checkCount('timeout', options.timeout ?? 60_000, 1),
    maxRetries: checkCount('maxRetries', options.maxRetries ?? 2, 0),
    rateLimitRetries: checkCount('maxRetries', options.rateLimitRetries ?? 3, 0),
    calls: new WeakMap(),
    timings: new WeakMap(),
  };
  const sender: RequestSender = {
    async onRequest({ request, schemaPath, options: clientOptions }) {
      const clientFetch = clientOptions?.fetch === sender.fetch ? undefined : clientOptions?.fetch;
      const call = startCall(
        state,
        request,
        options.fetch ?? clientFetch ?? globalFetch,
        schemaPath,
        clientOptions?.parseAs,
      );
      await admit(state, request, call, false);
      // Bodies can be read once: keep an unread copy in case the request is sent again.
      if (state.rateLimitRetries > 0 || call.maxFailureRetries > 0) call.template = request.clone();
    },
    async onResponse({ request, response }) {
      const call = state.calls.get(request);
      if (call === undefined) return undefined;
      const outcome = await settle(state, request, call, { response });
      if ('error' in outcome) throw outcome.error;
      return outcome.response === response ? undefined : outcome.response;
    },
    async onError({ request, error }) {
      const call = state.calls.get(request);
      const outcome = call === undefined ? { error } : await settle(state, request, call, { error });
      if ('response' in outcome) return outcome.response;
      if (outcome.error instanceof Error) return outcome.error;
      throw outcome.error;
    },
    async fetch(request) {
      let call = state.calls.get(request);
      if (call === undefined) {
        // Sent by another middleware (a resend after a 401): it waits its turn like any other.
        call = startCall(state, request, options.fetch ?? globalFetch);
        await admit(state, request, call, true);
      }
      return attempt(state, request, call);
    },
    timingOf(outcome) {
      return typeof outcome === 'object' && outcome !== null ? state.timings.get(outcome) : undefined;
    },
  };
  return sender;
}
