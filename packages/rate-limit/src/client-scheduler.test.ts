import { apiNames } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import type { ApiName } from './api-limits.js';
import { createRateLimitMiddleware } from './client-scheduler.js';
import { type ManualClock, manualClock } from './clock.js';
import type { RateLimitMiddleware } from './middleware-types.js';
import type { FetchLike } from './request-sender.js';
import { createServerLimiter } from './server-limiter.js';

const start = Date.UTC(2025, 0, 1, 12, 0, 0);

interface Served {
  readonly at: number;
  readonly status: number;
  readonly seq: string | null;
  readonly body: string;
}

/** A fake server that limits with the real server limiter on the same simulated clock. */
function fakeServer(api: ApiName, clock: ManualClock) {
  const limiter = createServerLimiter({ api, clock: clock.now });
  const served: Served[] = [];
  const fetch: FetchLike = async (request) => {
    const at = clock.now();
    const seq = request.headers.get('x-seq');
    const result = await limiter.take('app');
    served.push({ at, status: result.status, seq, body: await request.text() });
    const body = result.body === undefined ? '{}' : JSON.stringify(result.body);
    return new Response(body, { status: result.status, headers: result.headers });
  };
  return { fetch, served, limiter };
}

/** What openapi-fetch does with a middleware around one call: onRequest, fetch, onResponse. */
async function send(middleware: RateLimitMiddleware, fetch: FetchLike, request: Request): Promise<Response> {
  const params = { request, schemaPath: '/products', params: {}, id: 'x', options: { fetch } };
  await middleware.onRequest(params);
  const response = await fetch(request);
  return (await middleware.onResponse({ ...params, response })) ?? response;
}

const get = (seq = 0, signal?: AbortSignal): Request =>
  new Request('https://mall.example/api/products', {
    headers: { 'x-seq': String(seq) },
    signal: signal ?? null,
  });

/** A fetch that answers from a script of responses and records when it was called. */
function scriptedFetch(clock: ManualClock, respond: (call: number) => Response) {
  const calls: { at: number; body: string }[] = [];
  const fetch: FetchLike = async (request) => {
    calls.push({ at: clock.now(), body: await request.text() });
    return respond(calls.length);
  };
  return { fetch, calls };
}

const roomy = { kind: 'token-bucket', capacity: 100, refillIntervalMs: 1 } as const;

describe('createRateLimitMiddleware', () => {
  describe('schedules requests so that steady use never receives a 429', () => {
    it.each([
      ['collection', start + 120_000],
      ['admin', start + 30_000],
      ['analytics', start + 180_000],
    ] as const)(
      '100 requests one after another to the %s API, each sent as soon as the bucket allows',
      async (api, lastAt) => {
        const clock = manualClock(start);
        const server = fakeServer(api, clock);
        const middleware = createRateLimitMiddleware({ api, clock: clock.now, sleep: clock.sleep });
        for (let i = 0; i < 100; i++) await clock.run(send(middleware, server.fetch, get(i)));
        expect(server.served.filter((s) => s.status === 429)).toEqual([]);
        expect(server.served).toHaveLength(100);
        expect(server.served.at(-1)?.at).toBe(lastAt);
      },
    );

    it.each(apiNames)(
      '100 requests fired at once to the %s API are queued first in, first out',
      async (api) => {
        const clock = manualClock(start);
        const server = fakeServer(api, clock);
        const middleware = createRateLimitMiddleware({ api, clock: clock.now, sleep: clock.sleep });
        const responses = await clock.run(
          Promise.all(Array.from({ length: 100 }, (_, i) => send(middleware, server.fetch, get(i)))),
        );
        expect(responses.map((r) => r.status)).toEqual(Array.from({ length: 100 }, () => 200));
        expect(server.served.map((s) => Number(s.seq))).toEqual(Array.from({ length: 100 }, (_, i) => i));
      },
    );
  });

  describe('keeps its model in step with the response headers (other apps share the bucket)', () => {
    it.each([
      ['collection', 35, 5, start + 60_000],
      ['admin', 35, 5, start + 500],
      ['analytics', 8, 2, start + 2_000],
    ] as const)(
      'waits when the %s server reports a fuller bucket than its own model',
      async (api, usedByOthers, fitsNow, nextAt) => {
        const clock = manualClock(start);
        const server = fakeServer(api, clock);
        for (let i = 0; i < usedByOthers; i++) await server.limiter.take('app');
        const middleware = createRateLimitMiddleware({ api, clock: clock.now, sleep: clock.sleep });
        for (let i = 0; i < fitsNow + 1; i++) await clock.run(send(middleware, server.fetch, get(i)));
        expect(server.served.map((s) => s.status)).toEqual(Array.from({ length: fitsNow + 1 }, () => 200));
        expect(server.served.slice(0, fitsNow).every((s) => s.at === start)).toBe(true);
        expect(server.served[fitsNow]?.at).toBe(nextAt);
      },
    );

    it('after a 429 from the sliding log, the calls it counted and the model did not free their slots when Retry-After says', async () => {
      const clock = manualClock(start);
      const { fetch } = scriptedFetch(
        clock,
        () =>
          new Response('{}', { status: 429, headers: { 'Retry-After': '20', 'X-RateLimit-Remaining': '0' } }),
      );
      const middleware = createRateLimitMiddleware({
        api: 'collection',
        clock: clock.now,
        sleep: clock.sleep,
        maxRetries: 0,
      });
      expect((await clock.run(send(middleware, fetch, get()))).status).toBe(429);
      // Not a whole window as if all 40 had been made now.
      expect(await middleware.timeUntilAdmitted()).toBe(20_000);
    });

    it('reports how long until the next request would be sent', async () => {
      const clock = manualClock(start + 15_000);
      const server = fakeServer('collection', clock);
      const middleware = createRateLimitMiddleware({
        api: 'collection',
        clock: clock.now,
        sleep: clock.sleep,
      });
      expect(await middleware.timeUntilAdmitted()).toBe(0);
      for (let i = 0; i < 40; i++) await clock.run(send(middleware, server.fetch, get(i)));
      // The collection spec states a sliding log: the next call waits a whole minute after the first.
      expect(await middleware.timeUntilAdmitted()).toBe(60_000);
    });
  });

  describe('retries a 429', () => {
    it('resends the same request, body included, once Retry-After has passed', async () => {
      const clock = manualClock(start);
      const { fetch, calls } = scriptedFetch(clock, (call) =>
        call === 1
          ? new Response('{}', { status: 429, headers: { 'Retry-After': '7' } })
          : new Response('{"ok":true}', { status: 200 }),
      );
      const middleware = createRateLimitMiddleware({
        policy: roomy,
        clock: clock.now,
        sleep: clock.sleep,
        random: () => 0,
      });
      const request = new Request('https://mall.example/api/orders', {
        method: 'POST',
        body: '{"sku":"A-1"}',
      });
      const response = await clock.run(send(middleware, fetch, request));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true });
      expect(calls).toEqual([
        { at: start, body: '{"sku":"A-1"}' },
        { at: start + 7_000, body: '{"sku":"A-1"}' },
      ]);
    });

    it('backs off exponentially with jitter when the server sends no Retry-After', async () => {
      const clock = manualClock(start);
      const { fetch, calls } = scriptedFetch(clock, () => new Response('{}', { status: 429 }));
      const middleware = createRateLimitMiddleware({
        policy: roomy,
        clock: clock.now,
        sleep: clock.sleep,
        random: () => 0.5,
        backoff: { initialMs: 400, maxMs: 1_000 },
      });
      await clock.run(send(middleware, fetch, get()));
      const gaps = calls.slice(1).map((call, i) => call.at - (calls[i]?.at ?? 0));
      expect(gaps).toEqual([400 + 100, 800 + 200, 1_000 + 250]);
    });

    it('stops after maxRetries and hands back the last 429', async () => {
      const clock = manualClock(start);
      const { fetch, calls } = scriptedFetch(
        clock,
        (call) => new Response(`{"call":${call}}`, { status: 429, headers: { 'Retry-After': '1' } }),
      );
      const middleware = createRateLimitMiddleware({ policy: roomy, clock: clock.now, sleep: clock.sleep });
      const response = await clock.run(send(middleware, fetch, get()));
      expect(calls).toHaveLength(4);
      expect(response.status).toBe(429);
      expect(await response.json()).toEqual({ call: 4 });
    });

    it('does not retry at all with maxRetries 0', async () => {
      const clock = manualClock(start);
      const { fetch, calls } = scriptedFetch(clock, () => new Response('{}', { status: 429 }));
      const middleware = createRateLimitMiddleware({
        policy: roomy,
        clock: clock.now,
        sleep: clock.sleep,
        maxRetries: 0,
      });
      expect((await clock.run(send(middleware, fetch, get()))).status).toBe(429);
      expect(calls).toHaveLength(1);
    });

    it('holds back every queued request of the bucket while a Retry-After runs', async () => {
      const clock = manualClock(start);
      const { fetch, calls } = scriptedFetch(clock, (call) =>
        call === 1
          ? new Response('{}', { status: 429, headers: { 'Retry-After': '5' } })
          : new Response('{}'),
      );
      const middleware = createRateLimitMiddleware({
        policy: roomy,
        clock: clock.now,
        sleep: clock.sleep,
        random: () => 0,
      });
      const first = send(middleware, fetch, get(1));
      await clock.run(new Promise((resolve) => setImmediate(resolve)));
      const second = send(middleware, fetch, get(2));
      await clock.run(Promise.all([first, second]));
      expect(calls.map((call) => call.at)).toEqual([start, start + 5_000, start + 5_000]);
    });

    it('uses the fetch option to resend when given one', async () => {
      const clock = manualClock(start);
      const original = scriptedFetch(
        clock,
        () => new Response('{}', { status: 429, headers: { 'Retry-After': '1' } }),
      );
      const resend = scriptedFetch(clock, () => new Response('{}', { status: 200 }));
      const middleware = createRateLimitMiddleware({
        policy: roomy,
        clock: clock.now,
        sleep: clock.sleep,
        fetch: resend.fetch,
      });
      expect((await clock.run(send(middleware, original.fetch, get()))).status).toBe(200);
      expect([original.calls.length, resend.calls.length]).toEqual([1, 1]);
    });
  });

  describe('respects AbortSignal', () => {
    const oneASecond = { kind: 'fixed-window', limit: 1, windowMs: 1_000 } as const;

    it('a queued request whose signal aborts rejects at once with the reason and gives its place back', async () => {
      const clock = manualClock(start);
      const { fetch, calls } = scriptedFetch(clock, () => new Response('{}'));
      const middleware = createRateLimitMiddleware({
        policy: oneASecond,
        clock: clock.now,
        sleep: clock.sleep,
      });
      await clock.run(send(middleware, fetch, get(1)));
      const controller = new AbortController();
      const queued = send(middleware, fetch, get(2, controller.signal));
      const behind = send(middleware, fetch, get(3));
      await new Promise((resolve) => setImmediate(resolve));
      const reason = new Error('the user left the page');
      controller.abort(reason);
      await expect(queued).rejects.toBe(reason);
      expect(clock.now()).toBe(start);
      await clock.run(behind);
      expect(calls.map((call) => call.at)).toEqual([start, start + 1_000]);
    });

    it('a request whose signal is already aborted is never sent', async () => {
      const clock = manualClock(start);
      const { fetch, calls } = scriptedFetch(clock, () => new Response('{}'));
      const middleware = createRateLimitMiddleware({
        policy: oneASecond,
        clock: clock.now,
        sleep: clock.sleep,
      });
      const controller = new AbortController();
      controller.abort(new Error('gone'));
      await expect(send(middleware, fetch, get(1, controller.signal))).rejects.toThrow('gone');
      expect(calls).toHaveLength(0);
      expect(await middleware.timeUntilAdmitted()).toBe(0);
    });

    it('a retry waiting out Retry-After rejects when its signal aborts', async () => {
      const clock = manualClock(start);
      const { fetch, calls } = scriptedFetch(
        clock,
        () => new Response('{}', { status: 429, headers: { 'Retry-After': '30' } }),
      );
      const middleware = createRateLimitMiddleware({ policy: roomy, clock: clock.now, sleep: clock.sleep });
      const controller = new AbortController();
      const pending = send(middleware, fetch, get(1, controller.signal));
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort(new Error('timeout'));
      await expect(pending).rejects.toThrow('timeout');
      expect(calls).toHaveLength(1);
    });
  });

  it('keys requests by the key option, each key with its own bucket', async () => {
    const clock = manualClock(start);
    const { fetch, calls } = scriptedFetch(clock, () => new Response('{}'));
    const middleware = createRateLimitMiddleware({
      policy: { kind: 'fixed-window', limit: 1, windowMs: 1_000 },
      clock: clock.now,
      sleep: clock.sleep,
      key: (request) => new URL(request.url).hostname,
    });
    const mallA = new Request('https://a.mall.example/api/products');
    const mallB = new Request('https://b.mall.example/api/products');
    await clock.run(Promise.all([send(middleware, fetch, mallA), send(middleware, fetch, mallB)]));
    expect(calls.map((call) => call.at)).toEqual([start, start]);
  });

  it('refuses a negative maxRetries', () => {
    expect(() => createRateLimitMiddleware({ api: 'admin', maxRetries: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });
});
