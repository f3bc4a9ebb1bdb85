// The admin mock over real HTTP: the OAuth endpoints (authorize → code → tokens → refresh), 401 for
// a missing, invalid or expired token, the scope of every operation (403 naming it), HTTPS only,
// the per-mall leaky bucket (40 at once, then 2 per second) in simulated time, 400 for a body that
// is not JSON, 404 for an unknown path, and 422 naming the field for each class of bad input: the
// schema's keywords, each conditional rule of the spec, and the body rules of body-rules.ts.
//
// Violations the validation engine produces are matched by field (`request.` prefix and array
// indices aside), since engines name a missing property bare (`hscode`) or under its object
// (`request.hscode`); violations of our body rules are matched by their exact names.
import { createServerLimiter } from '@mall-api/rate-limit';
import { indexOperations, type Json, loadSpec, resolve } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoOAuthApp, demoOAuthClient } from '../oauth/demo-credentials.js';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { createOAuthAuthority, type OAuthAuthority } from '../oauth/oauth-authority.js';
import { platformOAuthSettings } from '../oauth/platform-oauth.js';
import { type RunningMock, startMockServer, startMockServers } from './mock-server.js';

const oauth = await platformOAuthSettings();

const allScopes = [
  'mall.read_category',
  'mall.write_category',
  'mall.read_product',
  'mall.write_product',
  'mall.read_application',
  'mall.write_application',
];
const basicDemoApp = `Basic ${Buffer.from(`${demoOAuthClient.clientId}:${demoOAuthClient.clientSecret}`).toString('base64')}`;
const redirectUri = 'http://127.0.0.1:8900/callback';

let mock: RunningMock;
let authority: OAuthAuthority;
let closeMocks: () => Promise<void>;
let mallCounter = 0;

interface Violation {
  location: string;
  name: string;
  message: string;
}
interface Envelope {
  error: { code: string; message: string; more_info: { required_scope?: string; violations?: Violation[] } };
}

/** A token for a fresh mall, so every call draws on its own bucket. */
const freshToken = async (scopes: readonly string[] = allScopes) =>
  (await issueDemoTokens(authority, scopes, `adminmall${++mallCounter}`)).access_token;

interface CallOptions {
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** `null` sends no Authorization header; default: a fresh token with every scope. */
  authorization?: string | null;
  base?: string;
}

async function call(method: string, path: string, options: CallOptions = {}) {
  const authorization =
    options.authorization === undefined ? `Bearer ${await freshToken()}` : options.authorization;
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(`${options.base ?? mock.url}${path}`, {
    method,
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(payload === undefined ? {} : { 'content-type': options.contentType ?? 'application/json' }),
      ...options.headers,
    },
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : {}) as Envelope & Record<string, unknown>,
  };
}

/** A violation's field without the `request` prefix and array indices: `shipping_rates.shipping_fee`. */
const fieldOf = (name: string) =>
  name
    .replace(/^request[./]/, '')
    .replace(/[./]\d+(?=[./]|$)/g, '')
    .replace(/\//g, '.');
/** Whether some violation is about `field` (a nested field may be named by its last segments). */
const namesField = (violations: readonly Violation[], field: string) =>
  violations.some((v) => {
    const named = fieldOf(v.name).toLowerCase();
    return named === field.toLowerCase() || named.endsWith(`.${field.toLowerCase()}`);
  });

const expect422Naming = (
  result: Awaited<ReturnType<typeof call>>,
  field: string,
  location: 'query' | 'body' | 'header',
) => {
  expect(result.status, JSON.stringify(result.body)).toBe(422);
  expect(result.body.error.code).toBe('invalid_parameter');
  const violations = result.body.error.more_info.violations ?? [];
  expect(namesField(violations, field), JSON.stringify(violations)).toBe(true);
  expect(violations.filter((v) => namesField([v], field)).map((v) => v.location)).toContain(location);
};

beforeAll(async () => {
  const started = await startMockServers({ apis: ['admin'], ports: { admin: 0 } });
  const [admin] = started.mocks;
  if (!admin) throw new Error('the admin mock did not start');
  mock = admin;
  authority = started.authority;
  closeMocks = started.close;
});
afterAll(async () => {
  await closeMocks();
});

describe('admin mock: the OAuth endpoints over HTTP', () => {
  it('redirects to the app with a code and the unchanged state; the code buys tokens the API accepts', async () => {
    const authorize = new URL(`${mock.url}/api/v2/oauth/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: demoOAuthClient.clientId,
      state: 'state-4711',
      redirect_uri: redirectUri,
      scope: 'mall.read_category,mall.read_product',
    }).toString();
    const redirect = await fetch(authorize, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe('state-4711');
    const code = location.searchParams.get('code') ?? '';

    const token = await fetch(`${mock.url}/api/v2/oauth/token`, {
      method: 'POST',
      headers: { authorization: basicDemoApp, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
    });
    expect(token.status).toBe(200);
    const tokens = (await token.json()) as { access_token: string; refresh_token: string; scopes: string[] };
    expect(tokens.scopes).toEqual(['mall.read_category', 'mall.read_product']);

    const categories = await call('GET', '/api/v2/admin/categories', {
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(categories.status).toBe(200);
    expect(Array.isArray(categories.body.categories)).toBe(true);
    const write = await call('POST', '/api/v2/admin/categories', {
      authorization: `Bearer ${tokens.access_token}`,
      body: { request: { category_name: 'Scarves' } },
    });
    expect(write.status).toBe(403);
    expect(write.body.error.more_info.required_scope).toBe('mall.write_category');
  });

  it('rotates the refresh token: the new access token works and the old refresh token is spent', async () => {
    const { refresh_token } = await issueDemoTokens(authority, ['mall.read_product'], 'rotatingmall');
    const refresh = (token: string) =>
      fetch(`${mock.url}/api/v2/oauth/token`, {
        method: 'POST',
        headers: { authorization: basicDemoApp, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }),
      });
    const renewed = await refresh(refresh_token);
    expect(renewed.status).toBe(200);
    const tokens = (await renewed.json()) as { access_token: string; refresh_token: string };
    expect(tokens.refresh_token).not.toBe(refresh_token);
    const products = await call('GET', '/api/v2/admin/products', {
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(products.status).toBe(200);
    const reused = await refresh(refresh_token);
    expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
  });
});

describe('admin mock: 401 without a usable access token', () => {
  it.each([
    ['no token', null],
    ['an unknown token', 'Bearer not-a-real-token'],
    ['a token that is not a bearer token', basicDemoApp],
  ])('answers 401 with the envelope for %s', async (_case, authorization) => {
    const { status, body } = await call('GET', '/api/v2/admin/categories', { authorization });
    expect(status).toBe(401);
    expect(body.error.code).toBe('unauthorized');
  });

  it('answers 401 once the access token is two hours old', async () => {
    let now = Date.UTC(2026, 10, 1, 0, 0, 0);
    const clockAuthority = createOAuthAuthority({
      apps: [demoOAuthApp(oauth)],
      settings: oauth,
      clock: () => now,
    });
    const timed = await startMockServer({ api: 'admin', port: 0, authority: clockAuthority });
    try {
      const token = `Bearer ${(await issueDemoTokens(clockAuthority, allScopes)).access_token}`;
      const get = () => call('GET', '/api/v2/admin/mains', { authorization: token, base: timed.url });
      now += 2 * 3600_000 - 1;
      expect((await get()).status).toBe(200);
      now += 1;
      const expired = await get();
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe('unauthorized');
      expect(expired.body.error.message).toContain('expired');
    } finally {
      await timed.close();
    }
  });
});

// The scope matrix: every operation of the bundled spec (the two OAuth endpoints need no token),
// called with its documented example path parameters, required query and body.
const { document: adminDocument } = await loadSpec('admin');
const scopedOperations = indexOperations(adminDocument).filter(
  (operation) => operation.requiredScope !== undefined && operation.requiredScope !== 'none',
);

type JsonObject = { [key: string]: Json };
const isJsonObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The documented example request of an operation: path, query string and body. */
function exampleRequest(pathTemplate: string, method: string): { path: string; body?: Json } {
  const pathItem = resolve(adminDocument, (adminDocument.paths as JsonObject)[pathTemplate]);
  const operation = resolve(adminDocument, pathItem[method]);
  const parameters = (Array.isArray(operation.parameters) ? operation.parameters : []).map((raw) =>
    resolve(adminDocument, raw),
  );
  const exampleOf = (parameter: JsonObject) => String(parameter.example ?? 1);
  let path = pathTemplate;
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    if (parameter.in === 'path') path = path.replace(`{${String(parameter.name)}}`, exampleOf(parameter));
    else if (parameter.in === 'query' && parameter.required === true)
      query.set(String(parameter.name), exampleOf(parameter));
  }
  const content = operation.requestBody ? resolve(adminDocument, operation.requestBody).content : undefined;
  const media = isJsonObject(content) ? content['application/json'] : undefined;
  const examples = isJsonObject(media) && isJsonObject(media.examples) ? Object.values(media.examples) : [];
  const first = examples[0];
  const search = query.size > 0 ? `?${query}` : '';
  return first === undefined
    ? { path: `${path}${search}` }
    : { path: `${path}${search}`, body: resolve(adminDocument, first).value ?? null };
}

describe('admin mock: the scope of every operation', () => {
  it('covers every operation but the two OAuth endpoints, which need no token', () => {
    const scoped = new Set(scopedOperations.map((operation) => operation.operationId));
    const unscoped = indexOperations(adminDocument).filter((operation) => !scoped.has(operation.operationId));
    expect(unscoped.map((operation) => operation.pathTemplate).sort()).toEqual([
      '/api/v2/oauth/authorize',
      '/api/v2/oauth/token',
    ]);
    expect(scopedOperations.length).toBeGreaterThan(allScopes.length);
    expect(new Set(scopedOperations.map((operation) => operation.requiredScope))).toEqual(new Set(allScopes));
  });

  it.each(scopedOperations.map((operation) => [operation.operationId, operation] as const))(
    '%s: 403 naming its scope without it, success with it',
    async (_id, operation) => {
      const scope = operation.requiredScope ?? '';
      const { path, body } = exampleRequest(operation.pathTemplate, operation.method);
      const method = operation.method.toUpperCase();
      const others = allScopes.filter((granted) => granted !== scope);
      const refused = await call(method, path, { body, authorization: `Bearer ${await freshToken(others)}` });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
      expect(refused.body.error.more_info.required_scope).toBe(scope);
      const allowed = await call(method, path, {
        body,
        authorization: `Bearer ${await freshToken([scope])}`,
      });
      expect(allowed.status, JSON.stringify(allowed.body)).toBe(method === 'POST' ? 201 : 200);
    },
  );
});

describe('admin mock: transport and routing', () => {
  it('answers 403 for a request that came over plain HTTP', async () => {
    const { status, body } = await call('GET', '/api/v2/admin/categories', {
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(status).toBe(403);
    expect(body.error.message).toContain('HTTPS');
  });

  it('answers 403 on the OAuth endpoints too for plain HTTP, as their 403 response documents', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/oauth/authorize?response_type=code&client_id=demo-app&state=s'],
      ['POST', '/api/v2/oauth/token'],
    ] as const) {
      const { status, body } = await call(method, path, {
        authorization: null,
        headers: { 'x-forwarded-proto': 'http' },
      });
      expect(status, path).toBe(403);
      expect(body.error.code).toBe('forbidden');
    }
  });

  it('answers 404 with the envelope for an unknown path and for a method a path does not offer', async () => {
    const unknown = await call('GET', '/api/v2/admin/categorys');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect((await call('PATCH', '/api/v2/admin/categories/44')).status).toBe(404);
  });

  it('answers a described version, answers another release date as the oldest described, refuses a non-date', async () => {
    const versioned = await call('GET', '/api/v2/admin/categories', {
      headers: { 'x-platform-api-version': '2020-09-01' },
    });
    expect(versioned.status).toBe(200);
    // Not in x-api-versions: the reference's fallback (the oldest described version) answers it.
    for (const date of ['2031-12-31', '2019-01-01']) {
      const fallback = await call('GET', '/api/v2/admin/categories', {
        headers: { 'x-platform-api-version': date },
      });
      expect(fallback.status, date).toBe(200);
      expect(fallback.body).toEqual(versioned.body);
    }
    const malformed = await call('GET', '/api/v2/admin/categories', {
      headers: { 'x-platform-api-version': 'latest' },
    });
    expect422Naming(malformed, 'X-Platform-Api-Version', 'header');
  });
});

describe('admin mock: 400 for a body that is not JSON', () => {
  it('answers 400 for a Content-Type other than JSON', async () => {
    const { status, body } = await call('POST', '/api/v2/admin/categories', {
      rawBody: JSON.stringify({ request: { category_name: 'Scarves' } }),
      contentType: 'text/plain',
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toContain('application/json');
  });

  it('answers 400 for a body that does not parse', async () => {
    const { status, body } = await call('POST', '/api/v2/admin/categories', {
      rawBody: '{"request": {"category_name": "Scarves"',
    });
    expect(status).toBe(400);
    expect(body.error.message).toContain('not valid JSON');
  });
});

describe('admin mock: the leaky bucket of each mall', () => {
  it('admits 40 at once, refuses the 41st with 429, and admits one more after half a second', async () => {
    let now = Date.UTC(2026, 10, 1);
    const limited = await startMockServer({
      api: 'admin',
      port: 0,
      authority,
      limiter: createServerLimiter({ api: 'admin', clock: () => now }),
    });
    try {
      const tokenA = `Bearer ${(await issueDemoTokens(authority, allScopes, 'bucketmall-a')).access_token}`;
      const tokenB = `Bearer ${(await issueDemoTokens(authority, allScopes, 'bucketmall-b')).access_token}`;
      const get = (token: string) =>
        call('GET', '/api/v2/admin/mains', { authorization: token, base: limited.url });
      const burst: string[] = [];
      for (let i = 0; i < 40; i++) {
        const { status, headers } = await get(tokenA);
        expect(status).toBe(200);
        burst.push(headers.get('x-api-call-limit') ?? '');
      }
      expect(burst[0]).toBe('1/40');
      expect(burst[39]).toBe('40/40');
      const refused = await get(tokenA);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-api-call-limit')).toBe('40/40');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.body.error.code).toBe('too_many_requests');

      const other = await get(tokenB);
      expect(other.status).toBe(200);
      expect(other.headers.get('x-api-call-limit')).toBe('1/40');

      now += 499;
      expect((await get(tokenA)).status).toBe(429);
      now += 1;
      expect((await get(tokenA)).status).toBe(200);
      expect((await get(tokenA)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

const longText = (length: number) => 'x'.repeat(length);
const newProduct = (fields: Record<string, unknown>) => ({
  request: { product_name: 'Linen Scarf', supply_price: '12000.00', ...fields },
});
const newBundle = (fields: Record<string, unknown>) => ({
  request: {
    product_name: 'Scarf and Mittens',
    bundle_product_components: [
      { product_no: 120, purchase_quantity: 1 },
      { product_no: 136, purchase_quantity: 1 },
    ],
    bundle_product_sales: { discount_value: '10.00', discount_type: 'P' },
    ...fields,
  },
});
const newCategory = (fields: Record<string, unknown>) => ({
  request: { category_name: 'Scarves', ...fields },
});
const displaySet = (prefix: string, key = 'A') => ({
  [`${prefix}product_display_type`]: 'A',
  [`${prefix}product_display_key`]: key,
  [`${prefix}product_display_sort`]: 'D',
});
const exportShipping = { shipping_fee_by_product: 'T', shipping_scope: 'C' };

type BadInput = readonly [string, string, string, unknown, string];

describe('admin mock: bad query parameters → 422 naming the parameter', () => {
  it.each<BadInput>([
    [
      'category_depth above 4 (depth 1..4)',
      'GET',
      '/api/v2/admin/categories?category_depth=5',
      undefined,
      'category_depth',
    ],
    [
      'display_group 4 (display group 1..3)',
      'GET',
      '/api/v2/admin/categories/44/products?display_group=4',
      undefined,
      'display_group',
    ],
    ['a missing display_group', 'GET', '/api/v2/admin/categories/44/products', undefined, 'display_group'],
    ['offset 8001 on categories', 'GET', '/api/v2/admin/categories?offset=8001', undefined, 'offset'],
    [
      'offset 8001 on bundle products',
      'GET',
      '/api/v2/admin/bundleproducts?offset=8001',
      undefined,
      'offset',
    ],
    ['offset 5001 on products', 'GET', '/api/v2/admin/products?offset=5001', undefined, 'offset'],
    ['limit 101', 'GET', '/api/v2/admin/categories?limit=101', undefined, 'limit'],
    ['limit 0', 'GET', '/api/v2/admin/bundleproducts?limit=0', undefined, 'limit'],
    [
      'limit 50001 on the category product list',
      'GET',
      '/api/v2/admin/categories/44/products?display_group=1&limit=50001',
      undefined,
      'limit',
    ],
    ['a T/F flag other than T or F', 'GET', '/api/v2/admin/products?display=Y', undefined, 'display'],
    [
      'since_product_no with offset',
      'GET',
      '/api/v2/admin/products?since_product_no=5200&offset=100',
      undefined,
      'offset',
    ],
    [
      'since_product_no with sort',
      'GET',
      '/api/v2/admin/products?since_product_no=5200&sort=product_name',
      undefined,
      'sort',
    ],
    [
      'since_product_no with product_no',
      'GET',
      '/api/v2/admin/products/count?since_product_no=5200&product_no=1',
      undefined,
      'product_no',
    ],
    [
      'embed=variants without custom_product_code or custom_variant_code',
      'GET',
      '/api/v2/admin/products?embed=options,variants',
      undefined,
      'custom_product_code',
    ],
    [
      'a crossed price range',
      'GET',
      '/api/v2/admin/products?price_min=500&price_max=100',
      undefined,
      'price_max',
    ],
    [
      'a crossed date range',
      'GET',
      '/api/v2/admin/bundleproducts?created_start_date=2026-05-01&created_end_date=2026-04-01',
      undefined,
      'created_end_date',
    ],
  ])('%s', async (_case, method, path, body, field) => {
    expect422Naming(await call(method, path, { body }), field, 'query');
  });
});

describe('admin mock: embed=variants with a code filter', () => {
  it('accepts embed=variants when custom_product_code or custom_variant_code is given', async () => {
    for (const filter of ['custom_product_code=SHIRT01', 'custom_variant_code=SHIRT01-RED'])
      expect((await call('GET', `/api/v2/admin/products?embed=variants&${filter}`)).status).toBe(200);
  });
});

describe('admin mock: bad bodies → 422 naming the field', () => {
  it.each<BadInput>([
    [
      'category_name longer than 50 (text maxLength)',
      'POST',
      '/api/v2/admin/categories',
      newCategory({ category_name: longText(51) }),
      'category_name',
    ],
    [
      'product_name longer than 250',
      'POST',
      '/api/v2/admin/products',
      newProduct({ product_name: longText(251) }),
      'product_name',
    ],
    [
      'a missing required field',
      'POST',
      '/api/v2/admin/categories',
      { request: { use_main: 'T' } },
      'category_name',
    ],
    [
      'six icons (array maxItems)',
      'POST',
      '/api/v2/admin/products',
      newProduct({ icon: ['a', 'b', 'c', 'd', 'e', 'f'] }),
      'icon',
    ],
    [
      'four PC header images',
      'PUT',
      '/api/v2/admin/categories/44/decorationimages',
      { request: { top_images_pc: ['a', 'b', 'c', 'd'] } },
      'top_images_pc',
    ],
    [
      'a brand code in lower case ([A-Z0-9]{8})',
      'POST',
      '/api/v2/admin/products',
      newProduct({ brand_code: 'b0000001' }),
      'brand_code',
    ],
    [
      'a clearance code of seven characters',
      'POST',
      '/api/v2/admin/products',
      newProduct({ clearance_category_code: 'ABC1234' }),
      'clearance_category_code',
    ],
    [
      'a tax rate of 101 (numeric range)',
      'POST',
      '/api/v2/admin/products',
      newProduct({ tax_amount: 101 }),
      'tax_amount',
    ],
    [
      'a T/F flag other than T or F',
      'POST',
      '/api/v2/admin/categories',
      newCategory({ use_main: 'Y' }),
      'use_main',
    ],
    [
      'display_group 4 in a body',
      'POST',
      '/api/v2/admin/categories/44/products',
      { request: { display_group: 4, product_no: [120] } },
      'display_group',
    ],
    [
      'sequence 1000000 (sequence range)',
      'PUT',
      '/api/v2/admin/categories/44/products',
      { request: { display_group: 1, product_no: 125, sequence: 1_000_000 } },
      'sequence',
    ],
    [
      'sequence 0',
      'PUT',
      '/api/v2/admin/categories/44/products',
      { request: { display_group: 1, product_no: 125, sequence: 0 } },
      'sequence',
    ],
    [
      'a field the request does not have',
      'POST',
      '/api/v2/admin/categories',
      newCategory({ colour: 'blue' }),
      'colour',
    ],
    [
      'several objects in one call (request as an array)',
      'POST',
      '/api/v2/admin/categories',
      { request: [{ category_name: 'A' }, { category_name: 'B' }] },
      'request',
    ],
    [
      'one object sent as an array',
      'PUT',
      '/api/v2/admin/categories/44/seo',
      { request: [{ meta_title: 'Scarves' }] },
      'request',
    ],
  ])('%s', async (_case, method, path, body, field) => {
    expect422Naming(await call(method, path, { body }), field, 'body');
  });
});

describe('admin mock: each conditional rule of the spec → 422 naming the field', () => {
  it.each<BadInput>([
    [
      'use_icon_exposure_term T without the end of the period',
      'PUT',
      '/api/v2/admin/bundleproducts/210',
      { request: { use_icon_exposure_term: 'T', icon_exposure_begin_datetime: '2026-12-01T00:00:00+09:00' } },
      'icon_exposure_end_datetime',
    ],
    [
      'scope A without the common display set',
      'POST',
      '/api/v2/admin/categories',
      newCategory({ product_display_scope: 'A' }),
      'product_display_type',
    ],
    [
      'scope A with the set but without its sort',
      'PUT',
      '/api/v2/admin/categories/44',
      { request: { product_display_scope: 'A', product_display_type: 'A', product_display_key: 'A' } },
      'product_display_sort',
    ],
    [
      'scope G without the new-products set',
      'POST',
      '/api/v2/admin/categories',
      newCategory({ product_display_scope: 'G', ...displaySet('normal_'), ...displaySet('recommend_') }),
      'new_product_display_type',
    ],
    [
      'scope G without the regular set',
      'PUT',
      '/api/v2/admin/categories/44',
      { request: { product_display_scope: 'G', ...displaySet('recommend_'), ...displaySet('new_') } },
      'normal_product_display_key',
    ],
    [
      'common key S without a period',
      'POST',
      '/api/v2/admin/categories',
      newCategory({ product_display_scope: 'A', ...displaySet('', 'S') }),
      'product_display_period',
    ],
    [
      'regular key C without a period',
      'POST',
      '/api/v2/admin/categories',
      newCategory({
        product_display_scope: 'G',
        ...displaySet('normal_', 'C'),
        ...displaySet('recommend_'),
        ...displaySet('new_'),
      }),
      'normal_product_display_period',
    ],
    [
      'recommended key S without a period',
      'POST',
      '/api/v2/admin/categories',
      newCategory({
        product_display_scope: 'G',
        ...displaySet('normal_'),
        ...displaySet('recommend_', 'S'),
        ...displaySet('new_'),
      }),
      'recommend_product_display_period',
    ],
    [
      'new-products key C without a period',
      'PUT',
      '/api/v2/admin/categories/44',
      {
        request: {
          product_display_scope: 'G',
          ...displaySet('normal_'),
          ...displaySet('recommend_'),
          ...displaySet('new_', 'C'),
        },
      },
      'new_product_display_period',
    ],
    [
      'shipping_scope C without an HS code',
      'POST',
      '/api/v2/admin/products',
      newProduct({ ...exportShipping, clearance_category_code: 'TRWM0000' }),
      'hscode',
    ],
    [
      'shipping_scope B without a clearance code',
      'PUT',
      '/api/v2/admin/products/120',
      { request: { shipping_fee_by_product: 'T', shipping_scope: 'B', hscode: '6204691000' } },
      'clearance_category_code',
    ],
    [
      'a bundle exported without customs codes',
      'POST',
      '/api/v2/admin/bundleproducts',
      newBundle(exportShipping),
      'hscode',
    ],
    [
      'a bundle with scope B but no clearance code',
      'PUT',
      '/api/v2/admin/bundleproducts/210',
      { request: { shipping_fee_by_product: 'T', shipping_scope: 'B', hscode: '6204691000' } },
      'clearance_category_code',
    ],
    [
      'shipping_scope with the common shipping charge',
      'POST',
      '/api/v2/admin/products',
      newProduct({ shipping_scope: 'A' }),
      'shipping_fee_by_product',
    ],
    [
      'shipping_scope with shipping_fee_by_product F',
      'PUT',
      '/api/v2/admin/products/120',
      { request: { shipping_fee_by_product: 'F', shipping_scope: 'A' } },
      'shipping_fee_by_product',
    ],
    [
      'an interval element for fee type R',
      'POST',
      '/api/v2/admin/products',
      newProduct({
        shipping_fee_type: 'R',
        shipping_rates: [{ shipping_rates_min: '0', shipping_rates_max: '50000', shipping_fee: '3000' }],
      }),
      'shipping_rates.shipping_rates_min',
    ],
    [
      'an interval element for fee type N',
      'POST',
      '/api/v2/admin/bundleproducts',
      newBundle({
        shipping_fee_type: 'N',
        shipping_rates: [{ shipping_rates_min: '1', shipping_rates_max: '3', shipping_fee: '3000' }],
      }),
      'shipping_rates.shipping_rates_min',
    ],
    [
      'a flat element for fee type D',
      'POST',
      '/api/v2/admin/products',
      newProduct({ shipping_fee_type: 'D', shipping_rates: [{ shipping_fee: '3000' }] }),
      'shipping_rates_min',
    ],
    [
      'a flat element for fee type W',
      'PUT',
      '/api/v2/admin/products/120',
      { request: { shipping_fee_type: 'W', shipping_rates: [{ shipping_fee: '3000' }] } },
      'shipping_rates_max',
    ],
    [
      'origin_place_no with origin classification E',
      'POST',
      '/api/v2/admin/products',
      newProduct({ origin_classification: 'E', origin_place_no: 1798 }),
      'origin_classification',
    ],
    [
      'origin_place_no without an origin classification',
      'POST',
      '/api/v2/admin/products',
      newProduct({ origin_place_no: 1798 }),
      'origin_classification',
    ],
    [
      'origin_place_no with classification E on update',
      'PUT',
      '/api/v2/admin/products/120',
      { request: { origin_classification: 'E', origin_place_no: 1798 } },
      'origin_classification',
    ],
    [
      'origin_place_value without origin number 1800',
      'POST',
      '/api/v2/admin/products',
      newProduct({ origin_classification: 'T', origin_place_no: 1798, origin_place_value: 'Lake Como' }),
      'origin_place_no',
    ],
    [
      'product_used_month for a new product',
      'POST',
      '/api/v2/admin/products',
      newProduct({ product_condition: 'N', product_used_month: 6 }),
      'product_condition',
    ],
    [
      'product_used_month for a bundle that is not used',
      'PUT',
      '/api/v2/admin/bundleproducts/210',
      { request: { product_condition: 'N', product_used_month: 6 } },
      'product_condition',
    ],
    [
      'a bundle discount without its type',
      'POST',
      '/api/v2/admin/bundleproducts',
      newBundle({ bundle_product_sales: { discount_value: '10.00' } }),
      'discount_type',
    ],
    [
      'a bundle discount without its value',
      'PUT',
      '/api/v2/admin/bundleproducts/210',
      { request: { bundle_product_sales: { discount_type: 'V' } } },
      'discount_value',
    ],
    [
      'a percentage discount above 100',
      'POST',
      '/api/v2/admin/bundleproducts',
      newBundle({ bundle_product_sales: { discount_value: '100.50', discount_type: 'P' } }),
      'discount_value',
    ],
    [
      'a bundle without components',
      'POST',
      '/api/v2/admin/bundleproducts',
      {
        request: {
          product_name: 'Empty',
          bundle_product_components: [],
          bundle_product_sales: { discount_value: '1', discount_type: 'V' },
        },
      },
      'bundle_product_components',
    ],
  ])('%s', async (_case, method, path, body, field) => {
    expect422Naming(await call(method, path, { body }), field, 'body');
  });

  it('shipping_rates without shipping_fee_type (dependentRequired), on products and bundles', async () => {
    const rates = { shipping_rates: [{ shipping_fee: '3000' }] };
    for (const [path, body] of [
      ['/api/v2/admin/products', newProduct(rates)],
      ['/api/v2/admin/bundleproducts', newBundle(rates)],
    ] as const) {
      const { status, body: answer } = await call('POST', path, { body });
      expect(status, JSON.stringify(answer)).toBe(422);
      const violations = answer.error.more_info.violations ?? [];
      // The validator may name the object that lacks the member (`request`) and say which one.
      const aboutFeeType = violations.filter(
        (v) => namesField([v], 'shipping_fee_type') || v.message.includes('shipping_fee_type'),
      );
      expect(
        aboutFeeType.map((v) => v.location),
        JSON.stringify(violations),
      ).toContain('body');
    }
  });

  it('accepts each conditional rule when it is kept', async () => {
    for (const [path, body] of [
      [
        '/api/v2/admin/categories',
        newCategory({ product_display_scope: 'A', ...displaySet('', 'S'), product_display_period: '1M' }),
      ],
      [
        '/api/v2/admin/products',
        newProduct({ ...exportShipping, hscode: '6204691000', clearance_category_code: 'TRWM0000' }),
      ],
      [
        '/api/v2/admin/products',
        newProduct({
          shipping_fee_type: 'D',
          shipping_rates: [{ shipping_rates_min: '0', shipping_rates_max: '50000', shipping_fee: '3000' }],
        }),
      ],
      [
        '/api/v2/admin/products',
        newProduct({ origin_classification: 'T', origin_place_no: 1800, origin_place_value: 'Lake Como' }),
      ],
      [
        '/api/v2/admin/bundleproducts',
        newBundle({ bundle_product_sales: { discount_value: '100.00', discount_type: 'P' } }),
      ],
    ] as const) {
      const { status, body: answer } = await call('POST', path, { body });
      expect(status, `${path} ${JSON.stringify(answer)}`).toBe(201);
    }
  });
});

describe('admin mock: the body rules a schema cannot express → 422 naming the field', () => {
  type RuleCase = readonly [string, string, string, unknown, readonly string[]];
  it.each<RuleCase>([
    [
      'a supply price above 2147483647',
      'POST',
      '/api/v2/admin/products',
      newProduct({ supply_price: '2147483648' }),
      ['request.supply_price'],
    ],
    [
      'prices above 2147483647 on update',
      'PUT',
      '/api/v2/admin/products/120',
      { request: { price: '9999999999.00', additional_price: '2147483647.01' } },
      ['request.price', 'request.additional_price'],
    ],
    [
      'a shipping fee above 2147483647',
      'POST',
      '/api/v2/admin/bundleproducts',
      newBundle({
        shipping_fee_type: 'R',
        shipping_rates: [{ shipping_fee: '3000' }, { shipping_fee: '3000000000' }],
      }),
      ['request.shipping_rates/1/shipping_fee'],
    ],
    [
      'options that combine to more than 100 variants',
      'POST',
      '/api/v2/admin/products',
      newProduct({
        has_option: 'T',
        options: [
          { name: 'Color', value: Array.from({ length: 11 }, (_, i) => `Color ${i}`) },
          { name: 'Size', value: Array.from({ length: 10 }, (_, i) => `Size ${i}`) },
        ],
      }),
      ['request.options'],
    ],
    [
      'an icon period that ends before it begins',
      'PUT',
      '/api/v2/admin/products/120',
      {
        request: {
          use_icon_exposure_term: 'T',
          icon_exposure_begin_datetime: '2026-12-24T00:00:00+09:00',
          icon_exposure_end_datetime: '2026-12-01T00:00:00+09:00',
        },
      },
      ['request.icon_exposure_end_datetime'],
    ],
    [
      'a shipping interval that ends before it starts',
      'PUT',
      '/api/v2/admin/products/120',
      {
        request: {
          shipping_fee_type: 'M',
          shipping_rates: [
            { shipping_rates_min: '50000', shipping_rates_max: '10000', shipping_fee: '3000' },
          ],
        },
      },
      ['request.shipping_rates/0/shipping_rates_max'],
    ],
    [
      'product tags joined by commas longer than 200',
      'POST',
      '/api/v2/admin/products',
      newProduct({ product_tag: [longText(150), longText(50)] }),
      ['request.product_tag'],
    ],
    [
      'bundle tags joined by commas longer than 200',
      'PUT',
      '/api/v2/admin/bundleproducts/210',
      { request: { product_tag: Array.from({ length: 41 }, () => 'tag1') } },
      ['request.product_tag'],
    ],
    [
      'a shipping period whose minimum exceeds its maximum',
      'PUT',
      '/api/v2/admin/products/120',
      { request: { shipping_period: { minimum: 5, maximum: 3 } } },
      ['request.shipping_period/maximum'],
    ],
    [
      'a shipping period minimum above the default maximum 7',
      'POST',
      '/api/v2/admin/bundleproducts',
      newBundle({ shipping_period: { minimum: 8 } }),
      ['request.shipping_period/maximum'],
    ],
    [
      'a pinned product that is not in the order',
      'PUT',
      '/api/v2/admin/mains/2/products',
      { request: { product_no: [135, 120], fix_product_no: [135, 136] } },
      ['request.fix_product_no/1'],
    ],
  ])('%s', async (_case, method, path, body, names) => {
    const { status, body: answer } = await call(method, path, { body });
    expect(status, JSON.stringify(answer)).toBe(422);
    const violations = answer.error.more_info.violations ?? [];
    for (const name of names) {
      expect(violations, JSON.stringify(violations)).toContainEqual(
        expect.objectContaining({ location: 'body', name }),
      );
      expect(answer.error.message).toContain(name);
    }
  });

  it('accepts values exactly at each limit', async () => {
    const atLimits = newProduct({
      supply_price: '2147483647',
      price: '2147483647.00',
      product_tag: [longText(100), longText(99)],
      shipping_period: { minimum: 7 },
      shipping_fee_type: 'C',
      shipping_rates: [{ shipping_rates_min: '3', shipping_rates_max: '3', shipping_fee: '2147483647' }],
    });
    const created = await call('POST', '/api/v2/admin/products', { body: atLimits });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const reordered = await call('PUT', '/api/v2/admin/mains/2/products', {
      body: { request: { product_no: [135, 120, 136], fix_product_no: [136, 135] } },
    });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
  });
});
