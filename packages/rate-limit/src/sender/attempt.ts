// One attempt of a call: sent under its own controller, aborted by its timeout (real time) or the
// caller's signal, settling with the abort reason as soon as either fires, and read to the end
// unless the client streams the body. Resending is retries.ts's.
import { about, type Call, type SenderState } from './sender-calls.js';

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
