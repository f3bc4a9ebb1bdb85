// openapi-fetch is not a dependency of this package (the middleware is structurally typed); this
// test borrows the workspace's copy to prove the middleware works inside a real client.
import createClient, { type Middleware } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { createRateLimitMiddleware } from './client-scheduler.js';
import { manualClock } from './clock.js';
import type { FetchLike } from './request-sender.js';
import { createServerLimiter } from './server-limiter.js';

interface paths {
  '/products': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/json': { ok: boolean } } };
        429: {
          headers: { [name: string]: unknown };
          content: { 'application/json': { error: { code: string; message: string } } };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}

const start = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('the middleware inside an openapi-fetch client', () => {
  it('is an openapi-fetch Middleware that schedules calls so none of 45 receives a 429', async () => {
    const clock = manualClock(start);
    const limiter = createServerLimiter({ api: 'collection', clock: clock.now });
    const sentAt: number[] = [];
    const fetch: FetchLike = async () => {
      const result = await limiter.take('203.0.113.7');
      sentAt.push(clock.now());
      const body = result.body ?? { ok: true };
      return new Response(JSON.stringify(body), {
        status: result.status,
        headers: { 'Content-Type': 'application/json', ...result.headers },
      });
    };
    const middleware: Middleware = createRateLimitMiddleware({
      api: 'collection',
      clock: clock.now,
      sleep: clock.sleep,
    });
    const client = createClient<paths>({ baseUrl: 'https://mall.example/api', fetch });
    client.use(middleware);
    const results = await clock.run(Promise.all(Array.from({ length: 45 }, () => client.GET('/products'))));
    expect(results.map((r) => r.response.status)).toEqual(Array.from({ length: 45 }, () => 200));
    expect(results.every((r) => r.data?.ok === true)).toBe(true);
    expect(sentAt.filter((at) => at === start + 60_000)).toHaveLength(5);
  });

  it('hands openapi-fetch the retried response after a 429', async () => {
    const clock = manualClock(start);
    let calls = 0;
    const fetch: FetchLike = async () => {
      calls += 1;
      return calls === 1
        ? new Response('{"error":{"code":"too_many_requests","message":"slow down"}}', {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '2' },
          })
        : new Response('{"ok":true}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    const client = createClient<paths>({ baseUrl: 'https://mall.example/api', fetch });
    client.use(
      createRateLimitMiddleware({
        policy: { kind: 'token-bucket', capacity: 10, refillIntervalMs: 100 },
        clock: clock.now,
        sleep: clock.sleep,
        random: () => 0,
      }),
    );
    const result = await clock.run(client.GET('/products'));
    expect(result).toMatchObject({ data: { ok: true } });
    expect(result.error).toBeUndefined();
    expect([calls, clock.now()]).toEqual([2, start + 2_000]);
  });
});
