// The request sender's rules, in simulated time with scripted answers: which failures are resent
// for which methods and how often, full-jitter backoff that never undercuts Retry-After, queueing
// every resend, the caller's signal ending the retries, per-call settings read from the request,
// and the timings and events it reports. HTTP wiring is tested in the client packages.
import { describe, expect, it } from 'vitest';
import { createRateLimitMiddleware } from './client-scheduler.js';
import { type ManualClock, manualClock } from './clock.js';
import { createRequestSender, type FetchLike, type RequestSender, type SendEvent } from './request-sender.js';
import { fullJitterDelayMs } from './retry-backoff.js';

const start = Date.UTC(2025, 0, 1, 12, 0, 0);

/** What openapi-fetch does around one call: onRequest, the client's fetch, then onResponse or onError. */
async function call(sender: RequestSender, request: Request): Promise<Response> {
  const params = { request, schemaPath: '/products', options: { fetch: sender.fetch } };
  await sender.onRequest(params);
  let response: Response;
  try {
    response = await sender.fetch(request);
  } catch (error) {
    const recovered = await sender.onError({ ...params, error });
    if (recovered instanceof Error) throw recovered;
    response = recovered;
  }
  return (await sender.onResponse({ ...params, response })) ?? response;
}

/** A fetch that answers from a script and records when and what it was sent. */
function scripted(clock: ManualClock, answer: (n: number) => Response | Error) {
  const sent: { at: number; method: string; body: string }[] = [];
  const fetch: FetchLike = async (request) => {
    sent.push({ at: clock.now(), method: request.method, body: await request.text() });
    const result = answer(sent.length);
    if (result instanceof Error) throw result;
    return result;
  };
  return { fetch, sent };
}

const status = (code: number, headers: Record<string, string> = {}) =>
  new Response(`{"status":${code}}`, { status: code, headers });
/** A request as openapi-fetch builds it: call settings (`maxRetries`, `retryPost`…) copied onto it. */
const request = (method = 'GET', settings: Record<string, unknown> = {}, signal?: AbortSignal) =>
  Object.assign(
    new Request('https://mall.example/api/products', {
      method,
      signal: signal ?? null,
      ...(method === 'GET' ? {} : { body: '{"a":1}' }),
    }),
    settings,
  );

describe('fullJitterDelayMs', () => {
  it('is random between 0 and the capped exponential, and never before Retry-After', () => {
    expect(fullJitterDelayMs(0, undefined, {}, () => 0.5)).toBe(250);
    expect(fullJitterDelayMs(3, undefined, {}, () => 0.999)).toBeCloseTo(3_996);
    expect(fullJitterDelayMs(10, undefined, { maxMs: 1_000 }, () => 1)).toBe(1_000);
    expect(fullJitterDelayMs(0, 2_000, {}, () => 0.1)).toBe(2_000);
  });
});

describe('createRequestSender', () => {
  const make = (
    clock: ManualClock,
    fetch: FetchLike,
    extra: Parameters<typeof createRequestSender>[0] = {},
  ) => createRequestSender({ clock: clock.now, sleep: clock.sleep, random: () => 1, fetch, ...extra });

  it.each([500, 503, 504, 408])('resends a GET answered %i, twice by default', async (code) => {
    const clock = manualClock(start);
    const { fetch, sent } = scripted(clock, () => status(code));
    const response = await clock.run(call(make(clock, fetch), request()));
    expect(response.status).toBe(code);
    expect(sent).toHaveLength(3);
  });

  it('backs off 500 ms then 1 s (full jitter at its top here), and waits longer when Retry-After says so', async () => {
    const clock = manualClock(start);
    const { fetch, sent } = scripted(clock, (n) =>
      n === 2 ? status(503, { 'Retry-After': '4' }) : status(503),
    );
    await clock.run(call(make(clock, fetch), request()));
    expect(sent.map((s) => s.at - start)).toEqual([0, 500, 4_500]);
  });

  it.each([400, 401, 404, 422, 501])('hands back %i at once', async (code) => {
    const clock = manualClock(start);
    const { fetch, sent } = scripted(clock, () => status(code));
    expect((await clock.run(call(make(clock, fetch), request()))).status).toBe(code);
    expect(sent).toHaveLength(1);
  });

  it('resends PUT and DELETE, never a POST unless the call says retryPost, with the body intact', async () => {
    for (const method of ['PUT', 'DELETE', 'POST']) {
      const clock = manualClock(start);
      const { fetch, sent } = scripted(clock, (n) => (n === 1 ? status(503) : status(200)));
      await clock.run(call(make(clock, fetch), request(method)));
      expect([method, sent.length]).toEqual([method, method === 'POST' ? 1 : 2]);
    }
    const clock = manualClock(start);
    const { fetch, sent } = scripted(clock, (n) => (n === 1 ? status(503) : status(201)));
    const response = await clock.run(call(make(clock, fetch), request('POST', { retryPost: true })));
    expect(response.status).toBe(201);
    expect(sent.map((s) => s.body)).toEqual(['{"a":1}', '{"a":1}']);
  });

  it('resends after a network failure (a TypeError from fetch, or a connection error code), and rethrows any other error', async () => {
    const clock = manualClock(start);
    const dropped = scripted(clock, (n) => (n === 1 ? new TypeError('fetch failed') : status(200)));
    expect((await clock.run(call(make(clock, dropped.fetch), request()))).status).toBe(200);
    expect(dropped.sent).toHaveLength(2);
    const reset = scripted(clock, (n) =>
      n === 1 ? Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) : status(200),
    );
    expect((await clock.run(call(make(clock, reset.fetch), request()))).status).toBe(200);
    expect(reset.sent).toHaveLength(2);
    const bug = new RangeError('a bug');
    const failing = scripted(clock, () => bug);
    await expect(clock.run(call(make(clock, failing.fetch), request()))).rejects.toBe(bug);
    expect(failing.sent).toHaveLength(1);
  });

  it('takes maxRetries and timeout from the call, and refuses nonsense', async () => {
    const clock = manualClock(start);
    const { fetch, sent } = scripted(clock, () => status(503));
    await clock.run(call(make(clock, fetch, { maxRetries: 5 }), request('GET', { maxRetries: 1 })));
    expect(sent).toHaveLength(2);
    await expect(call(make(clock, fetch), request('GET', { timeout: 0 }))).rejects.toMatchObject({
      code: 'invalid_option',
    });
    expect(() => createRequestSender({ maxRetries: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });

  it('stops retrying once the caller aborts during the backoff', async () => {
    const clock = manualClock(start);
    const { fetch, sent } = scripted(clock, () => status(503, { 'Retry-After': '60' }));
    const controller = new AbortController();
    const pending = call(make(clock, fetch), request('GET', {}, controller.signal));
    await new Promise((resolve) => setImmediate(resolve));
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(sent).toHaveLength(1);
  });

  it('reports each attempt, the retry, and the call timings on the final response', async () => {
    const clock = manualClock(start);
    const events: SendEvent[] = [];
    const { fetch } = scripted(clock, (n) => (n === 1 ? status(500) : status(200)));
    const sender = make(clock, fetch, { onEvent: (event) => events.push(event) });
    const authorized = request();
    authorized.headers.set('Authorization', 'Bearer secret');
    const response = await clock.run(call(sender, authorized));
    expect(events.map((event) => [event.type, event.attempt])).toEqual([
      ['request', 1],
      ['response', 1],
      ['retry', 1],
      ['request', 2],
      ['response', 2],
    ]);
    expect(events[0]).toMatchObject({
      method: 'GET',
      path: '/products',
      headers: { authorization: '[redacted]' },
    });
    expect(events[2]).toMatchObject({ reason: 'status', status: 500, delayMs: 500 });
    expect(sender.timingOf(response)).toEqual({ attempts: 2, queueWaitMs: 0, requestMs: 0 });
  });
});

describe('retries under the rate limit', () => {
  it('queues every resend, so failures retried at once never exceed the limit, and reports the wait', async () => {
    const clock = manualClock(start);
    const { fetch, sent } = scripted(clock, (n) => (n <= 2 ? status(503) : status(200)));
    const events: SendEvent[] = [];
    const middleware = createRateLimitMiddleware({
      policy: { kind: 'fixed-window', limit: 1, windowMs: 1_000 },
      clock: clock.now,
      sleep: clock.sleep,
      random: () => 0,
      fetch,
      onEvent: (event) => events.push(event),
    });
    const response = await clock.run(call(middleware, request()));
    expect(response.status).toBe(200);
    expect(sent.map((s) => s.at - start)).toEqual([0, 1_000, 2_000]);
    expect(events.filter((event) => event.type === 'throttle-wait')).toHaveLength(2);
    expect(middleware.timingOf(response)).toEqual({ attempts: 3, queueWaitMs: 2_000, requestMs: 0 });
  });

  it('remembers what the rate-limit headers last said', async () => {
    const clock = manualClock(start);
    const { fetch } = scripted(clock, () => status(200, { 'X-RateLimit-Remaining': '7' }));
    const middleware = createRateLimitMiddleware({
      api: 'analytics',
      clock: clock.now,
      sleep: clock.sleep,
      fetch,
    });
    expect(middleware.lastReport()).toBeUndefined();
    await clock.run(call(middleware, request()));
    expect(middleware.lastReport()).toEqual({ used: 3, remaining: 7, capacity: 10, reportedAt: start });
  });
});
