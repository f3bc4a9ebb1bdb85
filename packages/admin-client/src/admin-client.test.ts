// The admin client: the exact requests it sends (mall address, bearer token, version header, comma
// lists, one-object bodies), paging up to each list's offset cap and, for products, on past it
// with since_product_no; end to end against the real mock through the OAuth flow (authorize URL,
// redirect, code exchange, token manager with refresh); and the leaky-bucket scheduler against the
// mock in simulated time (40 at once, then 2 per second, and never a 429, retries of 503s included).
import {
  buildAuthorizeUrl,
  createMemoryTokenStore,
  createTokenManager,
  exchangeCode,
  refreshToken,
  verifyState,
} from '@mall-api/auth';
import {
  createOAuthAuthority,
  demoOAuthApp,
  demoOAuthClient,
  issueDemoTokens,
  platformOAuthSettings,
  type RunningMock,
  startMockServer,
  startMockServers,
} from '@mall-api/mock-server';
import { createServerLimiter, manualClock } from '@mall-api/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminBaseUrl,
  adminLatestApiVersion,
  type ClientEvent,
  createAdminClient,
  KeysetPagingError,
  OffsetCapReachedError,
} from './index.js';

/** The OAuth settings of the shipped admin and analytics specs, for the authorities built here. */
const oauth = await platformOAuthSettings();

/** A fetch that records requests (with unread bodies) and answers from a function. */
function recordingFetch(answer: (request: Request) => unknown) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request.clone());
    return new Response(JSON.stringify(answer(request)), {
      status: request.method === 'POST' ? 201 : 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { requests, fetch: fetch as typeof globalThis.fetch };
}

/** A fetch that answers every request with `status` and the JSON `body`. */
const answering = (status: number, body: unknown) =>
  (async () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    })) as typeof globalThis.fetch;

const query = (request: Request | undefined) => new URL(request?.url ?? 'http://x').searchParams;

describe('requests the client sends', () => {
  it('sends the bearer token, the version header and comma lists to the mall address', async () => {
    const { requests, fetch } = recordingFetch(() => ({ products: [] }));
    const client = createAdminClient({
      mallId: 'blueharbor',
      auth: { accessToken: 'tok-123' },
      fetch,
      rateLimit: false,
      apiVersion: adminLatestApiVersion,
    });
    const { data } = await client.GET('/api/v2/admin/products', {
      params: {
        query: {
          product_no: [120, 121, 135],
          embed: ['variants', 'options'],
          custom_product_code: ['HH-KN-0120'],
          display: 'T',
        },
      },
    });
    expect(data).toEqual({ products: [] });
    const [request] = requests;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe(
      'https://blueharbor.cafe24api.com/api/v2/admin/products?product_no=120,121,135&embed=variants,options&custom_product_code=HH-KN-0120&display=T',
    );
    expect(request?.headers.get('authorization')).toBe('Bearer tok-123');
    expect(request?.headers.get('x-platform-api-version')).toBe('2020-09-01');
  });

  it('sends no version header unless asked, and a request may name its own version', async () => {
    const { requests, fetch } = recordingFetch(() => ({ mains: [] }));
    const plain = createAdminClient({ mallId: 'm1', auth: { accessToken: 't' }, fetch, rateLimit: false });
    await plain.GET('/api/v2/admin/mains');
    expect(requests[0]?.headers.has('x-platform-api-version')).toBe(false);
    // The header is typed as the spec's enum of described versions.
    await plain.GET('/api/v2/admin/mains', {
      params: { header: { 'X-Platform-Api-Version': adminLatestApiVersion } },
    });
    expect(requests[1]?.headers.get('x-platform-api-version')).toBe('2020-09-01');
  });

  it('sends a create body as the envelope with one object', async () => {
    const { requests, fetch } = recordingFetch(() => ({ category: { category_no: 50 } }));
    const client = createAdminClient({ mallId: 'm1', auth: { accessToken: 't' }, fetch, rateLimit: false });
    const { data, response } = await client.POST('/api/v2/admin/categories', {
      body: { shop_no: 1, request: { category_name: 'Scarves', use_display: 'T' } },
    });
    expect(response.status).toBe(201);
    expect(data?.category.category_no).toBe(50);
    expect(requests[0]?.headers.get('content-type')).toBe('application/json');
    expect(await requests[0]?.json()).toEqual({
      shop_no: 1,
      request: { category_name: 'Scarves', use_display: 'T' },
    });
  });

  it('decodes a 207 as data: the added products and each item status, typed from the spec', async () => {
    const body = {
      product: { shop_no: 1, display_group: 1, product_no: [120] },
      results: [
        { index: 0, product_no: 120, status: 201 },
        { index: 1, product_no: 99999, status: 422, message: 'product 99999 does not exist' },
      ],
    };
    const fetch = answering(207, body);
    const client = createAdminClient({ mallId: 'm1', auth: { accessToken: 't' }, fetch, rateLimit: false });
    const { data, error, response } = await client.POST('/api/v2/admin/categories/{category_no}/products', {
      params: { path: { category_no: 24 } },
      body: { request: { product_no: [120, 99999] } },
    });
    expect(response.status).toBe(207);
    expect(error).toBeUndefined();
    // `results` exists only on the 207 body type: this compiles because the spec types it.
    const failed = data && 'results' in data ? data.results.filter((item) => item.status === 422) : [];
    expect(failed.map((item) => item.product_no)).toEqual([99999]);
    expect(data?.product.product_no).toEqual([120]);
  });

  it('refuses a mall ID that is not a host label and a version that is not a release date', () => {
    expect(adminBaseUrl('blueharbor')).toBe('https://blueharbor.cafe24api.com');
    expect(() => createAdminClient({ mallId: 'evil.example/x', auth: { accessToken: 't' } })).toThrow(
      RangeError,
    );
    expect(() =>
      createAdminClient({
        mallId: 'm1',
        baseUrl: 'http://127.0.0.1:4011',
        auth: { accessToken: 't' },
        apiVersion: 'latest',
      }),
    ).toThrow(RangeError);
  });
});

/** A fake products list of `total` products numbered 1..total, served by offset or by since_product_no. */
function productCatalogue(total: number, order: 'ascending' | 'descending' = 'ascending') {
  const numbers = Array.from({ length: total }, (_, i) => (order === 'ascending' ? i + 1 : total - i));
  return (request: Request) => {
    const q = query(request);
    const limit = Number(q.get('limit') ?? 10);
    const since = q.get('since_product_no');
    const page =
      since === null
        ? numbers.slice(Number(q.get('offset') ?? 0), Number(q.get('offset') ?? 0) + limit)
        : numbers.filter((n) => n > Number(since)).slice(0, limit);
    return { products: page.map((product_no) => ({ product_no, product_name: `Product ${product_no}` })) };
  };
}

describe('paginate', () => {
  it('pages categories 100 at a time until a short page', async () => {
    const { requests, fetch } = recordingFetch((request) => {
      const offset = Number(query(request).get('offset'));
      const size = offset < 200 ? 100 : 7;
      return { categories: Array.from({ length: size }, (_, i) => ({ category_no: offset + i + 1 })) };
    });
    const client = createAdminClient({ mallId: 'm1', auth: { accessToken: 't' }, fetch, rateLimit: false });
    const numbers: number[] = [];
    for await (const category of client.paginate('/api/v2/admin/categories', { category_depth: 2 }))
      numbers.push(category.category_no);
    expect(numbers).toHaveLength(207);
    expect(requests.map((r) => query(r).get('offset'))).toEqual(['0', '100', '200']);
    expect(query(requests[0]).get('limit')).toBe('100');
    expect(query(requests[0]).get('category_depth')).toBe('2');
  });

  it('stops loudly at offset 8000 on categories, and quietly on bundle products when asked', async () => {
    const full = (key: string) =>
      recordingFetch(() => ({
        [key]: Array.from({ length: 100 }, (_, i) => ({ category_no: i + 1, product_no: i + 1 })),
      }));
    const categories = full('categories');
    const client = createAdminClient({
      mallId: 'm1',
      auth: { accessToken: 't' },
      fetch: categories.fetch,
      rateLimit: false,
    });
    let read = 0;
    const drain = async () => {
      for await (const _ of client.paginate('/api/v2/admin/categories', {})) read++;
    };
    await expect(drain()).rejects.toBeInstanceOf(OffsetCapReachedError);
    expect(read).toBe(8100);
    expect(query(categories.requests.at(-1)).get('offset')).toBe('8000');

    const bundles = full('bundleproducts');
    const quiet = createAdminClient({
      mallId: 'm1',
      auth: { accessToken: 't' },
      fetch: bundles.fetch,
      rateLimit: false,
    });
    let bundleCount = 0;
    for await (const _ of quiet.paginate('/api/v2/admin/bundleproducts', {}, { onCapReached: 'stop' }))
      bundleCount++;
    expect(bundleCount).toBe(8100);
  });

  it('reads every product: by offset up to 5000, then by since_product_no without offset, sort and order', async () => {
    const { requests, fetch } = recordingFetch(productCatalogue(12_345));
    const client = createAdminClient({ mallId: 'm1', auth: { accessToken: 't' }, fetch, rateLimit: false });
    const numbers: number[] = [];
    for await (const product of client.paginate('/api/v2/admin/products', {
      display: 'T',
      sort: 'created_date',
      order: 'asc',
    })) {
      numbers.push(product.product_no);
    }
    expect(numbers).toEqual(Array.from({ length: 12_345 }, (_, i) => i + 1));
    const byOffset = requests.filter((r) => query(r).has('offset'));
    expect(byOffset.map((r) => query(r).get('offset'))).toEqual(
      Array.from({ length: 51 }, (_, i) => String(i * 100)),
    );
    expect(query(byOffset[0]).get('sort')).toBe('created_date');
    const bySince = requests.filter((r) => query(r).has('since_product_no'));
    expect(bySince.map((r) => query(r).get('since_product_no'))).toEqual(
      Array.from({ length: 73 }, (_, i) => String(5100 + i * 100)),
    );
    for (const request of bySince) {
      const q = query(request);
      expect([q.has('offset'), q.has('sort'), q.has('order')]).toEqual([false, false, false]);
      expect([q.get('display'), q.get('limit')]).toEqual(['T', '100']);
    }
    expect(requests).toHaveLength(byOffset.length + bySince.length);
  });

  it('does not continue by since_product_no when the products did not come in ascending number order', async () => {
    const { requests, fetch } = recordingFetch(productCatalogue(9_000, 'descending'));
    const client = createAdminClient({ mallId: 'm1', auth: { accessToken: 't' }, fetch, rateLimit: false });
    let read = 0;
    const drain = async () => {
      for await (const _ of client.paginate('/api/v2/admin/products', {
        sort: 'created_date',
        order: 'desc',
      }))
        read++;
    };
    await expect(drain()).rejects.toBeInstanceOf(OffsetCapReachedError);
    expect(read).toBe(5100);
    expect(requests.some((r) => query(r).has('since_product_no'))).toBe(false);
  });

  it('stops with KeysetPagingError when since_product_no does not advance', async () => {
    const catalogue = productCatalogue(6_000);
    const { fetch } = recordingFetch((request) =>
      query(request).has('since_product_no') ? { products: [{ product_no: 5100 }] } : catalogue(request),
    );
    const client = createAdminClient({ mallId: 'm1', auth: { accessToken: 't' }, fetch, rateLimit: false });
    const drain = async () => {
      for await (const _ of client.paginate('/api/v2/admin/products', {})) {
        // drain
      }
    };
    await expect(drain()).rejects.toBeInstanceOf(KeysetPagingError);
  });

  it('throws the error envelope of a failed page', async () => {
    const envelope = {
      error: { code: 'forbidden', message: 'no', more_info: { required_scope: 'mall.read_product' } },
    };
    const fetch = answering(403, envelope);
    const client = createAdminClient({ mallId: 'm1', auth: { accessToken: 't' }, fetch, rateLimit: false });
    const drain = async () => {
      for await (const _ of client.paginate('/api/v2/admin/bundleproducts', {})) {
        // drain
      }
    };
    await expect(drain()).rejects.toMatchObject({ status: 403, body: envelope });
  });
});

describe('end to end against the mock, through the OAuth flow', () => {
  let now = Date.UTC(2026, 10, 1, 0, 0, 0);
  let mocks: { mocks: RunningMock[]; close(): Promise<void> };
  let mockUrl = '';
  beforeAll(async () => {
    mocks = await startMockServers({ apis: ['admin'], ports: { admin: 0 }, clock: () => now });
    mockUrl = mocks.mocks[0]?.url ?? '';
  });
  afterAll(async () => {
    await mocks.close();
  });

  it('authorizes, exchanges the code, and lists, creates and pages with a refreshing token manager', async () => {
    const app = { clientId: demoOAuthClient.clientId, clientSecret: demoOAuthClient.clientSecret };
    const redirectUri = 'http://127.0.0.1:8900/callback';
    const { url, state } = buildAuthorizeUrl({
      mallBaseUrl: mockUrl,
      clientId: app.clientId,
      redirectUri,
      scopes: ['mall.read_category', 'mall.write_category', 'mall.read_product'],
    });
    const redirect = await fetch(url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location') ?? '');
    verifyState(state, location.searchParams.get('state'));
    const tokens = await exchangeCode({
      mallBaseUrl: mockUrl,
      ...app,
      code: location.searchParams.get('code') ?? '',
      redirectUri,
    });
    expect(tokens.mallId).toBe('demomall');

    const store = createMemoryTokenStore();
    await store.set('demomall', tokens);
    const refreshes: string[] = [];
    const tokenManager = createTokenManager({
      mallId: 'demomall',
      store,
      clock: () => now,
      refresh: (token) => {
        refreshes.push(token);
        return refreshToken({ mallBaseUrl: mockUrl, ...app, refreshToken: token });
      },
    });
    const client = createAdminClient({ mallId: 'demomall', baseUrl: mockUrl, auth: tokenManager });

    const listed = await client.GET('/api/v2/admin/categories', { params: { query: { limit: 5 } } });
    expect(listed.response.status).toBe(200);
    expect(listed.data?.categories[0]?.category_no).toBeTypeOf('number');

    const created = await client.POST('/api/v2/admin/categories', {
      body: { request: { category_name: 'Scarves', parent_category_no: 1 } },
    });
    expect(created.response.status).toBe(201);
    expect(created.data?.category.category_no).toBeTypeOf('number');

    now += 2 * 3600_000; // the access token has expired: the manager refreshes at the mock, once
    const products: number[] = [];
    for await (const product of client.paginate('/api/v2/admin/products', { display: 'T' }))
      products.push(product.product_no);
    expect(products).toEqual([120, 135]);
    expect(refreshes).toEqual([tokens.refreshToken]);
    const stored = await store.get('demomall');
    expect(stored?.refreshToken).not.toBe(tokens.refreshToken);
    expect(stored?.accessToken).not.toBe(tokens.accessToken);
  });
});

describe('the leaky bucket, against the mock in simulated time', () => {
  const clock = manualClock(Date.UTC(2026, 10, 1));
  const authority = createOAuthAuthority({ apps: [demoOAuthApp(oauth)], settings: oauth });
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

  it('never receives a 429: 40 calls at once, then one every half second', async () => {
    const token = (await issueDemoTokens(authority, ['mall.read_category'])).access_token;
    const client = createAdminClient({
      mallId: 'demomall',
      baseUrl: mock.url,
      auth: { accessToken: token },
      rateLimit: { clock: clock.now, sleep: clock.sleep },
    });
    const started = clock.now();
    const statuses: number[] = [];
    const sentAt: number[] = [];
    for (let i = 0; i < 60; i++) {
      const { response } = await clock.run(client.GET('/api/v2/admin/mains'));
      statuses.push(response.status);
      sentAt.push(clock.now() - started);
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(0);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(sentAt.slice(0, 40).every((ms) => ms === 0)).toBe(true);
    expect(sentAt.slice(40)).toEqual(Array.from({ length: 20 }, (_, i) => (i + 1) * 500));
  });

  it('30 calls answered 503 twice each: 90 requests, every call ends in data, zero 429', async () => {
    clock.advance(60_000); // the bucket the previous test filled has drained
    const token = (await issueDemoTokens(authority, ['mall.read_category'])).access_token;
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
