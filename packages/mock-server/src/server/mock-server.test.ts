// The collection mock over real HTTP: credentials, scope, routing, validation into the API's
// envelope, response selection with Prefer/__code, and the 40-per-minute fixed window.

import { createServerLimiter } from '@mall-api/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMockServer } from './mock-server.js';

const demo = `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`;
const shopsOnly = `Basic ${Buffer.from('shops-only-partner:shops-only-secret').toString('base64')}`;
let mock: RunningMock;
let clientCounter = 0;

/** Each call comes from its own simulated client (a loopback proxy's X-Forwarded-For) unless told otherwise, so limits do not interfere. */
const call = async (
  path: string,
  headers: Record<string, string> = { authorization: demo },
  client?: string,
) => {
  const response = await fetch(`${mock.url}${path}`, {
    headers: { 'x-forwarded-for': client ?? `10.0.0.${++clientCounter}`, ...headers },
  });
  const body = (await response.json()) as {
    error?: { code: string; message: string; more_info: Record<string, unknown> };
  } & Record<string, unknown>;
  return { status: response.status, headers: response.headers, body };
};

const products = '/api/products?collection_product_category=C100210';

beforeAll(async () => {
  mock = await startMockServer({ api: 'collection', port: 0, trustProxy: ['loopback'] });
});
afterAll(async () => {
  await mock.close();
});

describe('collection mock: success', () => {
  it('lists products for valid credentials with the documented example', async () => {
    const { status, body, headers } = await call(products);
    expect(status).toBe(200);
    expect(Array.isArray(body.products)).toBe(true);
    expect((body.products as unknown[]).length).toBeGreaterThan(0);
    expect(headers.get('content-type')).toContain('application/json');
  });

  it('serves every operation of the spec', async () => {
    for (const path of [
      '/api/shops',
      products,
      `/api/products/count?collection_product_category=C100210`,
      '/api/products/standardtags',
      '/api/storeproducts?store_id=blueharbor',
    ]) {
      expect((await call(path)).status, path).toBe(200);
    }
  });

  it('reports the exact rate-limit headers on every response, errors included', async () => {
    const ok = await call(products, { authorization: demo }, 'headers-client');
    expect(ok.headers.get('x-ratelimit-limit')).toBe('40');
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('39');
    expect(ok.headers.get('x-api-call-limit')).toBe('1/40');
    const unauthorized = await call(products, {}, 'headers-client');
    expect(unauthorized.headers.get('x-ratelimit-remaining')).toBe('38');
    expect(unauthorized.headers.get('x-api-call-limit')).toBe('2/40');
  });
});

describe('collection mock: authentication', () => {
  it.each([
    ['missing', {}],
    ['malformed', { authorization: 'Basic not-base64!' }],
    ['wrong secret', { authorization: `Basic ${Buffer.from('demo-partner:nope').toString('base64')}` }],
    [
      'unknown client',
      { authorization: `Basic ${Buffer.from('someone:demo-partner-secret').toString('base64')}` },
    ],
    ['bearer instead of basic', { authorization: 'Bearer abc' }],
  ])('answers 401 with the envelope for %s credentials', async (_case, headers) => {
    const { status, body } = await call(products, headers as Record<string, string>);
    expect(status).toBe(401);
    expect(body.error?.code).toBe('unauthorized');
    expect(body.error?.message).toBeTypeOf('string');
    expect(body.error?.more_info).toEqual({});
  });

  it('answers 401 naming the scope when the client lacks it', async () => {
    const { status, body } = await call(products, { authorization: shopsOnly });
    expect(status).toBe(401);
    expect(body.error?.more_info).toEqual({ required_scope: 'collection.read_product' });
    expect((await call('/api/shops', { authorization: shopsOnly })).status).toBe(200);
  });

  it('never echoes the secret in an error', async () => {
    const { body } = await call(products, {
      authorization: `Basic ${Buffer.from('demo-partner:hunter2-secret').toString('base64')}`,
    });
    expect(JSON.stringify(body)).not.toContain('hunter2');
  });
});

describe('collection mock: routing', () => {
  it('answers 404 with the envelope for an unknown path', async () => {
    const { status, body } = await call('/api/product');
    expect(status).toBe(404);
    expect(body.error?.code).toBe('not_found');
  });

  it('answers 404 for a method the API does not offer', async () => {
    const response = await fetch(`${mock.url}/api/shops`, {
      method: 'POST',
      headers: { authorization: demo, 'x-forwarded-for': 'post-client' },
    });
    expect(response.status).toBe(404);
  });
});

describe('collection mock: validation → 422 envelope naming the parameter', () => {
  it.each([
    ['array over its maximum', '/api/shops?shop_name=a,b,c,d', 'shop_name'],
    ['limit above 100', '/api/shops?limit=101', 'limit'],
    ['limit below 1', '/api/shops?limit=0', 'limit'],
    ['offset above 5000', '/api/shops?offset=5001', 'offset'],
    ['unknown enum value', '/api/shops?shop_language=xx_XX', 'shop_language'],
    ['missing required parameter', '/api/products', 'collection_product_category'],
    ['wrong type', '/api/shops?limit=ten', 'limit'],
    ['review score above 5', `${products}&review_score_min=6`, 'review_score_min'],
    ['bad date', '/api/shops?created_start_date=2026-13-45', 'created_start_date'],
    [
      'mutually exclusive parameters',
      `${products}&product_ukey=blueharbor_1_1&store_id=blueharbor`,
      'store_id',
    ],
    ['crossed range', `${products}&price_min=500&price_max=100`, 'price_max'],
    [
      'crossed date range',
      '/api/shops?created_start_date=2026-05-01&created_end_date=2026-04-01',
      'created_end_date',
    ],
    [
      'more than 10 values for one tag key',
      `${products}&product_standard_tags=${Array.from({ length: 11 }, (_, i) => `color:c${i}`).join(',')}`,
      'product_standard_tags',
    ],
    ['storeproducts without store_id', '/api/storeproducts', 'store_id'],
  ])('%s', async (_case, path, parameter) => {
    const { status, body } = await call(path);
    expect(status).toBe(422);
    expect(body.error?.code).toBe('invalid_parameter');
    expect(body.error?.message).toContain(parameter);
    const violations = body.error?.more_info.violations as { name: string; location: string }[];
    expect(violations.map((v) => v.name)).toContain(parameter);
  });
});

describe('collection mock: choosing a documented response', () => {
  it('returns the status asked for with Prefer: code', async () => {
    const { status, body } = await call(products, { authorization: demo, prefer: 'code=404' });
    expect(status).toBe(404);
    expect(body.error?.code).toBe('not_found');
  });

  it('returns the status asked for with __code, which is not validated as a parameter', async () => {
    const { status, body } = await call(`${products}&__code=503`);
    expect(status).toBe(503);
    expect(body.error?.code).toBe('service_unavailable');
  });

  it('returns a named example with Prefer: example', async () => {
    const { status, body } = await call(products, {
      authorization: demo,
      prefer: 'code=422, example=ConflictingParameters',
    });
    expect(status).toBe(422);
    expect(body.error?.message).toContain('product_ukey');
  });

  it('returns a default-response example named without a code', async () => {
    const named = await call(products, { authorization: demo, prefer: 'example=twoProducts' });
    const plain = await call(products, { authorization: demo });
    expect(named.status).toBe(200);
    expect(named.body).toEqual(plain.body);
  });

  it('answers a preference naming no documented response with a 404 envelope naming Prefer', async () => {
    for (const prefer of ['code=418', 'code=200, example=NoSuchExample', 'example=NoSuchExample']) {
      const { status, body } = await call(products, { authorization: demo, prefer });
      expect(status, prefer).toBe(404);
      expect(body.error?.code).toBe('not_found');
      const violations = body.error?.more_info.violations as { name: string }[];
      expect(violations.map((v) => v.name)).toEqual(['Prefer']);
    }
  });

  it('still requires credentials when a response is asked for', async () => {
    expect((await call(products, { prefer: 'code=200' })).status).toBe(401);
  });
});

describe('collection mock: 40 calls per minute per client', () => {
  it('admits 40 calls, answers the 41st with 429, envelope and Retry-After, and admits again a minute after the first', async () => {
    let now = Date.UTC(2026, 0, 1, 0, 0, 10);
    const limited = await startMockServer({
      api: 'collection',
      port: 0,
      limiter: createServerLimiter({ api: 'collection', clock: () => now }),
    });
    try {
      const get = () => fetch(`${limited.url}${products}`, { headers: { authorization: demo } });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await get()).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const rejected = await get();
      expect(rejected.status).toBe(429);
      expect(rejected.headers.get('retry-after')).toBe('60');
      expect(rejected.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(rejected.headers.get('x-api-call-limit')).toBe('40/40');
      const body = (await rejected.json()) as { error: { code: string; more_info: { retry_after: number } } };
      expect(body.error.code).toBe('too_many_requests');
      expect(body.error.more_info.retry_after).toBe(60);
      now += 60_000;
      const afterReset = await get();
      expect(afterReset.status).toBe(200);
      expect(afterReset.headers.get('x-api-call-limit')).toBe('1/40');
    } finally {
      await limited.close();
    }
  });

  it('counts clients separately', async () => {
    for (let i = 0; i < 41; i++) await call('/api/shops', { authorization: demo }, 'busy-client');
    expect((await call('/api/shops', { authorization: demo }, 'busy-client')).status).toBe(429);
    expect((await call('/api/shops', { authorization: demo }, 'quiet-client')).status).toBe(200);
  });
});
