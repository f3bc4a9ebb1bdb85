// The collection client: the exact requests it sends, paging to the offset cap, its limiter under
// the 40-per-minute window (simulated time, against the real mock), and polite 429 retries.

import { type RunningMock, startMockServer } from '@mall-api/mock-server';
import { createServerLimiter, manualClock } from '@mall-api/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollectionClient, OffsetCapReachedError } from './index.js';

const credentials = { clientId: 'demo-partner', clientSecret: 'demo-partner-secret' };

/** A fetch that records requests and answers from a function. */
function recordingFetch(answer: (request: Request) => Response | Promise<Response>) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request.clone());
    return answer(request);
  };
  return { requests, fetch: fetch as typeof globalThis.fetch };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('requests the client sends', () => {
  it('sends Basic credentials and comma lists to the base URL', async () => {
    const { requests, fetch } = recordingFetch(() => json({ shops: [] }));
    const client = createCollectionClient({
      ...credentials,
      baseUrl: 'https://collection.test',
      fetch,
      rateLimit: false,
    });
    const { data } = await client.GET('/api/shops', {
      params: { query: { shop_no: [1, 2], shop_name: ['Blue Harbor', 'Mint'], limit: 20 } },
    });
    expect(data).toEqual({ shops: [] });
    const [request] = requests;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe(
      'https://collection.test/api/shops?shop_no=1,2&shop_name=Blue%20Harbor,Mint&limit=20',
    );
    expect(request?.headers.get('authorization')).toBe(
      `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`,
    );
  });

  it('returns the error envelope as `error` without throwing', async () => {
    const envelope = { error: { code: 'invalid_parameter', message: 'limit must be <= 100', more_info: {} } };
    const { fetch } = recordingFetch(() => json(envelope, 422));
    const client = createCollectionClient({ ...credentials, fetch, rateLimit: false });
    const { data, error, response } = await client.GET('/api/shops', { params: { query: { limit: 100 } } });
    expect(data).toBeUndefined();
    expect(error).toEqual(envelope);
    expect(response.status).toBe(422);
  });
});

describe('paginate', () => {
  it('walks limit/offset pages and stops loudly at offset 5000', async () => {
    const { requests, fetch } = recordingFetch((request) => {
      const offset = Number(new URL(request.url).searchParams.get('offset'));
      return json({ products: Array.from({ length: 100 }, (_, i) => ({ product_no: offset + i + 1 })) });
    });
    const client = createCollectionClient({ ...credentials, fetch, rateLimit: false });
    const seen: number[] = [];
    const run = async () => {
      for await (const product of client.paginate('/api/products', {
        collection_product_category: ['C100210'],
      })) {
        seen.push(product.product_no);
      }
    };
    await expect(run()).rejects.toBeInstanceOf(OffsetCapReachedError);
    expect(seen).toHaveLength(5100);
    expect(new URL(requests.at(-1)?.url ?? '').searchParams.get('offset')).toBe('5000');
    expect(new URL(requests[0]?.url ?? '').searchParams.get('collection_product_category')).toBe('C100210');
  });

  it('uses the list key of each endpoint', async () => {
    const { fetch } = recordingFetch(() => json({ store_products: [{ product_no: 7 }] }));
    const client = createCollectionClient({ ...credentials, fetch, rateLimit: false });
    const items = [];
    for await (const item of client.paginate('/api/storeproducts', { store_id: ['blueharbor'] }))
      items.push(item);
    expect(items).toEqual([{ product_no: 7 }]);
  });

  it('throws the error envelope of a failed page', async () => {
    const { fetch } = recordingFetch(() =>
      json({ error: { code: 'unauthorized', message: 'no', more_info: {} } }, 401),
    );
    const client = createCollectionClient({ ...credentials, fetch, rateLimit: false });
    const iterate = async () => {
      for await (const _ of client.paginate('/api/shops', {})) {
        // drain
      }
    };
    await expect(iterate()).rejects.toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
  });
});

describe('against the real mock', () => {
  let mock: RunningMock;
  const clock = manualClock(Date.UTC(2026, 0, 1, 9, 0, 0));
  beforeAll(async () => {
    mock = await startMockServer({
      api: 'collection',
      port: 0,
      limiter: createServerLimiter({ api: 'collection', clock: clock.now }),
    });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('lists products with typed data', async () => {
    const client = createCollectionClient({ ...credentials, baseUrl: mock.url, rateLimit: false });
    const { data, error } = await client.GET('/api/products', {
      params: { query: { collection_product_category: ['C100210'], shop_grade: ['black'] } },
    });
    expect(error).toBeUndefined();
    expect(data?.products[0]?.product_name).toBeTypeOf('string');
  });

  it('never receives a 429 in steady use: the 41st call waits for the next window', async () => {
    const statuses: number[] = [];
    const client = createCollectionClient({
      ...credentials,
      baseUrl: mock.url,
      rateLimit: { clock: clock.now, sleep: clock.sleep },
    });
    const startedAt = clock.now();
    for (let i = 0; i < 90; i++) {
      const { response } = await clock.run(client.GET('/api/shops', { params: { query: { limit: 1 } } }));
      statuses.push(response.status);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(clock.now() - startedAt).toBeGreaterThanOrEqual(2 * 60_000);
  });
});

describe('429 handling', () => {
  it('retries a 429 after Retry-After and returns the success', async () => {
    let calls = 0;
    const clock = manualClock(0);
    const { requests, fetch } = recordingFetch(() =>
      ++calls === 1
        ? json({ error: { code: 'too_many_requests', message: 'slow down', more_info: {} } }, 429, {
            'retry-after': '3',
          })
        : json({ shops: [] }),
    );
    const client = createCollectionClient({
      ...credentials,
      fetch,
      rateLimit: { clock: clock.now, sleep: clock.sleep },
    });
    const { response } = await clock.run(client.GET('/api/shops'));
    expect(response.status).toBe(200);
    expect(requests).toHaveLength(2);
    expect(clock.now()).toBeGreaterThanOrEqual(3000);
    expect(requests[1]?.headers.get('authorization')).toMatch(/^Basic /);
  });

  it('gives up after the bounded number of retries and returns the 429', async () => {
    const clock = manualClock(0);
    const { requests, fetch } = recordingFetch(() =>
      json({ error: { code: 'too_many_requests', message: 'no', more_info: {} } }, 429, {
        'retry-after': '1',
      }),
    );
    const client = createCollectionClient({
      ...credentials,
      fetch,
      rateLimit: { clock: clock.now, sleep: clock.sleep, maxRetries: 2 },
    });
    const { response } = await clock.run(client.GET('/api/shops'));
    expect(response.status).toBe(429);
    expect(requests).toHaveLength(3);
  });
});
