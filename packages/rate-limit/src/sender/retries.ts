// Resending a call: a 429 after `Retry-After` or backoff, holding back the whole bucket; a 500, 503,
// 504, 408, dropped connection or timeout with full-jitter backoff when the method is idempotent or
// the call opted in; each resend queues again. Records the timings of the call's final outcome.
import { fullJitterDelayMs, parseRetryAfter, retryDelayMs } from '../retry-backoff.js';
import { about, admit, attempt, type Call, type SenderState } from './sender-calls.js';
import type { RetryReason } from './sender-types.js';

/** Statuses a failed idempotent call is resent on. */
const retriedStatuses = new Set([408, 500, 503, 504]);

/** A call's outcome: a response, or what its attempt threw. */
export type Outcome = { readonly response: Response } | { readonly error: unknown };

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

/** Why and after how long `outcome` is retried, or `undefined` when it is final. */
function retryOf(state: SenderState, request: Request, call: Call, outcome: Outcome) {
  const { clock, options, random, rateLimitRetries } = state;
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
}

/** Resends while the outcome is worth retrying; resolves to the final outcome. */
export async function settle(
  state: SenderState,
  request: Request,
  call: Call,
  first: Outcome,
): Promise<Outcome> {
  const { admission, onEvent, clock, sleep } = state;
  let outcome = first;
  if (call.attempts === 0) {
    // The first attempt was sent by the client's own fetch: count it and read its headers.
    call.attempts = 1;
    if ('response' in outcome) await admission?.observe(request, outcome.response);
    admission?.finished(request);
  }
  for (
    let retry = retryOf(state, request, call, outcome);
    retry;
    retry = retryOf(state, request, call, outcome)
  ) {
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
      await admit(state, request, call, true);
      outcome = { response: await attempt(state, (call.template as Request).clone(), call) };
    } catch (error) {
      outcome = { error };
    }
  }
  const final = 'response' in outcome ? outcome.response : outcome.error;
  if (typeof final === 'object' && final !== null) {
    state.timings.set(final, {
      attempts: call.attempts,
      queueWaitMs: call.queueWaitMs,
      requestMs: call.requestMs,
    });
  }
  return outcome;
}
