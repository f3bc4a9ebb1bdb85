// The admin client's failure handling against a local fault server: a POST is never resent unless
// the call opts in, a resent PUT or POST carries its body intact, failed writes name their
// operation, and token refreshes and the rate-limit headers are observable. (Retries under the
// leaky bucket against the real admin mock are in admin-client.test.ts, beside the scheduler test.)
import { createMemoryTokenStore, createTokenManager, type TokenSet } from '@mall-api/auth';
import { type FaultServer, startFaultServer } from '@mall-api/test-support/fault-server';
import { afterEach, describe, expect, it } from 'vitest';
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
