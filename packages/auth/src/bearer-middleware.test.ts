// Specification of the bearer-token middleware, alone and plugged into a real openapi-fetch client:
// it adds the token, answers a 401 with one refresh and one resend of an intact clone, never loops,
// and tells its hook of every token replacement (never the token itself).
import createClient, { type Middleware } from 'openapi-fetch';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createBearerMiddleware } from './bearer-middleware.js';
import { ReauthorizationRequiredError } from './errors.js';
import { createMemoryTokenStore } from './memory-token-store.js';
import type { FetchFunction } from './oauth-client.js';
import { createFakeAuthority, managedGrant } from './testing/fake-authority.js';
import { createTokenManager, type TokenManager } from './token-manager.js';

interface paths {
  '/api/v2/admin/products': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { 'application/json': { request: { product_name: string; price: string } } } };
      responses: {
        201: {
          headers: Record<string, unknown>;
          content: { 'application/json': { product: { product_no: number } } };
        };
        401: {
          headers: Record<string, unknown>;
          content: { 'application/json': { error: { code: number } } };
        };
      };
    };
  };
}

interface Received {
  readonly method: string;
  readonly authorization: string | null;
  readonly body: string;
}

/** A token manager over a fake authority, and an API `fetch` that accepts only the current token. */
async function setup(options: { rejectEverything?: boolean } = {}) {
  const { authority, initial, manager } = await managedGrant({ refreshDelayMs: 5 });
  const received: Received[] = [];
  const api: FetchFunction = async (request) => {
    received.push({
      method: request.method,
      authorization: request.headers.get('authorization'),
      body: await request.text(),
    });
    const valid = request.headers.get('authorization') === `Bearer ${authority.current?.accessToken}`;
    if (options.rejectEverything || !valid) {
      return Response.json({ error: { code: 401, message: 'invalid access token' } }, { status: 401 });
    }
    return Response.json({ product: { product_no: 7 } }, { status: 201 });
  };
  return { authority, initial, manager, received, api };
}

const product = { request: { product_name: 'Linen shirt', price: '39000.00' } };

describe('createBearerMiddleware', () => {
  it('is an openapi-fetch Middleware', () => {
    const manager: TokenManager = {
      getAccessToken: async () => 't',
      invalidate: () => undefined,
      refreshAfterUnauthorized: async () => 't2',
    };
    expectTypeOf(createBearerMiddleware(manager)).toExtend<Middleware>();
    const middleware: Middleware = createBearerMiddleware(manager);
    expect(typeof middleware.onRequest).toBe('function');
  });

  it('sets Authorization: Bearer <current access token> on the request', async () => {
    const { manager, initial } = await setup();
    const request = new Request('http://127.0.0.1:4011/api/v2/admin/products');
    const result = await createBearerMiddleware(manager).onRequest({ request });
    expect(result.headers.get('authorization')).toBe(`Bearer ${initial.accessToken}`);
  });

  it('leaves non-401 answers alone', async () => {
    const { manager, authority, api, received } = await setup();
    const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4011', fetch: api });
    client.use(createBearerMiddleware(manager));
    const { data, response } = await client.POST('/api/v2/admin/products', { body: product });
    expect(response.status).toBe(201);
    expect(data).toEqual({ product: { product_no: 7 } });
    expect(received).toHaveLength(1);
    expect(authority.refreshAttempts).toBe(0);
  });

  it('on a 401 refreshes once and resends the POST with the new token and its body intact', async () => {
    const { authority, initial, api, received } = await setup();
    const store = createMemoryTokenStore();
    await store.set('yourmall', { ...initial, accessToken: 'revoked-token' }); // the API no longer accepts it
    const manager = createTokenManager({ mallId: 'yourmall', store, refresh: (t) => authority.refresh(t) });
    const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4011', fetch: api });
    client.use(createBearerMiddleware(manager));
    const { data, response } = await client.POST('/api/v2/admin/products', { body: product });

    expect(response.status).toBe(201);
    expect(data).toEqual({ product: { product_no: 7 } });
    expect(authority.refreshCount).toBe(1);
    expect(received.map((r) => [r.method, r.authorization])).toEqual([
      ['POST', 'Bearer revoked-token'],
      ['POST', `Bearer ${authority.current?.accessToken}`],
    ]);
    expect(received.map((r) => JSON.parse(r.body))).toEqual([product, product]);
  });

  it('returns a second 401 to the caller instead of looping', async () => {
    const { manager, authority, api, received } = await setup({ rejectEverything: true });
    const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4011', fetch: api });
    client.use(createBearerMiddleware(manager));
    const { error, response } = await client.POST('/api/v2/admin/products', { body: product });
    expect(response.status).toBe(401);
    expect(error).toEqual({ error: { code: 401, message: 'invalid access token' } });
    expect(received).toHaveLength(2);
    expect(authority.refreshAttempts).toBe(1);
  });

  it('resends with the fetch given in its options when there is one', async () => {
    const { manager, api } = await setup({ rejectEverything: true });
    const resent: Request[] = [];
    const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4011', fetch: api });
    client.use(
      createBearerMiddleware(manager, {
        fetch: async (request) => {
          resent.push(request);
          return Response.json({ product: { product_no: 8 } }, { status: 201 });
        },
      }),
    );
    const { data } = await client.POST('/api/v2/admin/products', { body: product });
    expect(data).toEqual({ product: { product_no: 8 } });
    expect(resent).toHaveLength(1);
    expect(await resent[0]?.json()).toEqual(product);
  });

  it('shares one refresh among concurrent requests that all got a 401', async () => {
    const { authority, initial, api, received } = await setup();
    const store = createMemoryTokenStore();
    await store.set('yourmall', { ...initial, accessToken: 'revoked-token' });
    const manager = createTokenManager({ mallId: 'yourmall', store, refresh: (t) => authority.refresh(t) });
    const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4011', fetch: api });
    client.use(createBearerMiddleware(manager));
    const results = await Promise.all(
      Array.from({ length: 10 }, () => client.POST('/api/v2/admin/products', { body: product })),
    );
    expect(results.map((r) => r.response.status)).toEqual(Array(10).fill(201));
    expect(authority.refreshAttempts).toBe(1);
    expect(received).toHaveLength(20);
  });

  it('lets a re-authorization error from the token manager reach the caller', async () => {
    const { api } = await setup();
    const authority = createFakeAuthority();
    const store = createMemoryTokenStore();
    await store.set('yourmall', {
      ...authority.issue(),
      accessToken: 'revoked-token',
      refreshToken: 'spent',
    });
    const manager = createTokenManager({ mallId: 'yourmall', store, refresh: (t) => authority.refresh(t) });
    const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4011', fetch: api });
    client.use(createBearerMiddleware(manager));
    await expect(client.POST('/api/v2/admin/products', { body: product })).rejects.toBeInstanceOf(
      ReauthorizationRequiredError,
    );
  });

  it('tells onTokenRefresh of a refresh after a 401 and of a token rotated ahead of expiry', async () => {
    const { authority, initial, api } = await setup();
    const store = createMemoryTokenStore();
    await store.set('yourmall', { ...initial, accessToken: 'revoked-token' });
    let now = Date.now();
    const manager = createTokenManager({
      mallId: 'yourmall',
      store,
      clock: () => now,
      refresh: (t) => authority.refresh(t),
    });
    const events: unknown[] = [];
    const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4011', fetch: api });
    client.use(createBearerMiddleware(manager, { onTokenRefresh: (event) => events.push(event) }));
    await client.POST('/api/v2/admin/products', { body: product });
    await client.POST('/api/v2/admin/products', { body: product });
    expect(events).toEqual([
      { type: 'token-refresh', reason: 'unauthorized', durationMs: expect.any(Number) },
    ]);
    now += 3 * 3_600_000; // past expiry: the next request gets a new token from the manager
    await client.POST('/api/v2/admin/products', { body: product });
    expect(events).toHaveLength(2);
    expect(events[1]).toEqual({ type: 'token-refresh', reason: 'rotated', durationMs: expect.any(Number) });
    expect(JSON.stringify(events)).not.toContain(authority.current?.accessToken ?? 'no token');
  });
});
