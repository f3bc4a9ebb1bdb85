// The admin client's failure handling: a POST is never resent unless the call opts in, a resent
// PUT or POST carries its body intact, token refreshes and the rate-limit headers are observable,
// and — against the real admin mock and its leaky bucket, in simulated time — retries of failed
// calls wait their turn in the same queue, so they never cause a 429.
import { createMemoryTokenStore, createTokenManager, type TokenSet } from '@mall-api/auth';
import { type FaultServer, startFaultServer } from '@mall-api/client-kit/testing';
import {
  createOAuthAuthority,
  demoOAuthApp,
  issueDemoTokens,
  type RunningMock,
  startMockServer,
} from '@mall-api/mock-server';
import { createServerLimiter, manualClock } from '@mall-api/rate-limit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ClientEvent, createAdminClient, isMallApiError } from './index.js';

const unavailable = {
  status: 503,
  body: { error: { code: 'service_unavailable', message: 'The server is down.', more_info: {} } },
};
const created = { status: 201, body: { category: { category_no: 77 } } };
const categoryBody = { shop_no: 1, request: { category_name: 'Scarves' } };

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientOf = (url: string) =>
  createAdminClient({
    mallId: 'demomall',
    baseUrl: url,
    auth: { accessToken: 'tok-secret' },
    retryBackoff: { initialMs: 5, maxMs: 20 },
  });

describe('writes', () => {
  it('sends a POST answered 503 once and hands back the error', async () => {
    server = await startFaultServer(() => unavailable);
    const { data, error, response } = await clientOf(server.url).POST('/api/v2/admin/categories', {
      body: categoryBody,
    });
    expect([data, response.status]).toEqual([undefined, 503]);
    expect(error).toEqual(unavailable.body);
    expect(server.requests).toHaveLength(1);
  });

  it('resends a POST that opted in, its body intact each time', async () => {
    server = await startFaultServer((index) => (index < 2 ? unavailable : created));
    const { data } = await clientOf(server.url).POST('/api/v2/admin/categories', {
      body: categoryBody,
      retryPost: true,
    });
    expect(data).toEqual(created.body);
    expect(server.requests.map((request) => JSON.parse(request.body))).toEqual(Array(3).fill(categoryBody));
  });

  it('resends a PUT after a dropped connection, its body intact', async () => {
    server = await startFaultServer((index) => (index === 0 ? 'drop' : { status: 200, body: created.body }));
    const body = { shop_no: 1, request: { category_name: 'Winter scarves' } };
    const { data } = await clientOf(server.url).PUT('/api/v2/admin/categories/{category_no}', {
      params: { path: { category_no: 77 } },
      body,
    });
    expect(data).toEqual(created.body);
    expect(server.requests.map((request) => [request.method, JSON.parse(request.body)])).toEqual([
      ['PUT', body],
      ['PUT', body],
    ]);
  });

  it('names the operation of a failed write', async () => {
    server = await startFaultServer(() => unavailable);
    const error = await clientOf(server.url)
      .POST('/api/v2/admin/categories', { body: categoryBody, throwOnError: true })
      .catch((caught: unknown) => caught);
    expect(isMallApiError(error, 'server')).toBe(true);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', operationId: 'createCategory' });
  });
});

describe('what the client lets an app observe', () => {
  it('tells the rate-limit state the headers last reported', async () => {
    server = await startFaultServer(() => ({
      status: 200,
      headers: { 'X-Api-Call-Limit': '7/40' },
      body: { mains: [] },
    }));
    const client = clientOf(server.url);
    expect(client.rateLimit()).toBeUndefined();
    await client.GET('/api/v2/admin/mains');
    expect(client.rateLimit()).toMatchObject({ used: 7, remaining: 33, capacity: 40 });
  });

  it('reports a token refresh after a 401, and the retried request with the new token', async () => {
    const later = (hours: number) => new Date(Date.now() + hours * 3_600_000);
    const tokens = (accessToken: string): TokenSet => ({
      accessToken,
      accessTokenExpiresAt: later(2),
      refreshToken: `refresh-${accessToken}`,
      refreshTokenExpiresAt: later(24 * 14),
      clientId: 'demo-app',
      mallId: 'demomall',
      userId: 'admin',
      scopes: ['mall.read_category'],
      issuedAt: new Date(),
    });
    const store = createMemoryTokenStore();
    await store.set('demomall', tokens('old-token'));
    const manager = createTokenManager({
      mallId: 'demomall',
      store,
      refresh: async () => tokens('new-token'),
    });
    server = await startFaultServer((_, request) =>
      request.headers.authorization === 'Bearer new-token'
        ? { status: 200, body: { mains: [] } }
        : { status: 401, body: { error: { code: 'unauthorized', message: 'expired', more_info: {} } } },
    );
    const events: ClientEvent[] = [];
    const client = createAdminClient({
      mallId: 'demomall',
      baseUrl: server.url,
      auth: manager,
      onEvent: (event) => events.push(event),
    });
    const { data } = await client.GET('/api/v2/admin/mains');
    expect(data).toEqual({ mains: [] });
    expect(events.filter((event) => event.type === 'token-refresh')).toEqual([
      { type: 'token-refresh', reason: 'unauthorized', durationMs: expect.any(Number) },
    ]);
    expect(events.filter((event) => event.type === 'request')).toHaveLength(2);
    expect(JSON.stringify(events)).not.toMatch(/old-token|new-token/);
  });
});

describe('retries under the leaky bucket, against the admin mock in simulated time', () => {
  const clock = manualClock(Date.UTC(2026, 10, 1));
  const authority = createOAuthAuthority({ apps: [demoOAuthApp] });
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMockServer({
      api: 'admin',
      port: 0,
      authority,
      limiter: createServerLimiter({ api: 'admin', clock: clock.now }),
    });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('30 calls answered 503 twice each: 90 requests, every call ends in data, zero 429', async () => {
    const token = issueDemoTokens(authority, ['mall.read_category']).access_token;
    const statuses: number[] = [];
    const attemptsByCall = new Map<string, number>();
    // The mock answers 503 when asked to (`Prefer: code=503`): ask for it on each call's first two attempts.
    const faultyFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const call = request.headers.get('x-call') ?? '';
      const attempt = (attemptsByCall.get(call) ?? 0) + 1;
      attemptsByCall.set(call, attempt);
      if (attempt <= 2) request.headers.set('Prefer', 'code=503');
      const response = await fetch(request);
      statuses.push(response.status);
      return response;
    };
    const client = createAdminClient({
      mallId: 'demomall',
      baseUrl: mock.url,
      auth: { accessToken: token },
      fetch: faultyFetch as typeof globalThis.fetch,
      rateLimit: { clock: clock.now, sleep: clock.sleep },
      onEvent: (event) => events.push(event),
    });
    const events: ClientEvent[] = [];
    const results = await clock.run(
      Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          client.GET('/api/v2/admin/mains', { headers: { 'x-call': String(i) } }),
        ),
      ),
    );
    expect(results.every((result) => result.response.status === 200 && result.data !== undefined)).toBe(true);
    expect(statuses).toHaveLength(90);
    expect(statuses.filter((status) => status === 503)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(0);
    // 90 requests through a bucket of 40 draining 2 per second: the late ones waited in the queue,
    // and that wait is reported apart from the request time.
    const waits = events.flatMap((event) => (event.type === 'throttle-wait' ? [event.waitMs] : []));
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(500);
    const lastRequest = events.filter((event) => event.type === 'request').at(-1);
    expect(lastRequest).toMatchObject({ operationId: 'listMains', attempt: 3 });
    expect((lastRequest as { queueWaitMs: number }).queueWaitMs).toBeGreaterThan(0);
  });
});
