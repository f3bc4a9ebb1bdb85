// Sandbox mode over real HTTP, the wiring only: query texts reach the sandbox converted by the spec
// (comma lists, numbers, dates, enums) and bad ones are refused first, the front layer's body rules
// refuse before the sandbox is asked (nothing written), the sandbox option's mall settings reach the
// sandbox, the sandbox's outcomes are said in HTTP (404, 422 naming the item, 207 with per-item
// statuses), 50 creates arriving 25 at a time through the asynchronous request path lose nothing,
// the collection and analytics mocks answer from the same sandbox (every analytics operation, the
// token's mall), a data directory given to the mock survives a restart, and open sandbox malls given
// to startMockServers are served and left open. Every success body is checked against the
// operation's response schema. The sandbox's own rules (filters, sorting, placements, the analytics
// over time, the collection's codes, restarts) are tested at its surface in packages/sandbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuthorization } from '@mall-api/auth';
import { createSandboxMalls } from '@mall-api/sandbox';
import { apiNames, indexOperations, loadSpec, resolve, type SpecModel } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { startMockServers } from './mock-server.js';

const demoBasic = basicAuthorization('demo-partner', 'demo-partner-secret');

const allScopes = ['mall.read_category', 'mall.write_category', 'mall.read_product', 'mall.write_product'];
// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely; their schema is checked by Ajv
type Body = Record<string, any>;

let served: Awaited<ReturnType<typeof startMockServers>>;
let admin: string;
let collection: string;
let analytics: string;
/** The mall of the main mocks' tokens: the analytics' `mall_id` and the collection's `store_id`. */
const sandboxMall = 'sandboxmall';
let checkResponse: (
  api: 'admin' | 'collection' | 'analytics',
  method: string,
  path: string,
  status: number,
  body: unknown,
) => void;

async function responseChecker() {
  const checkers = new Map<string, (status: number, body: unknown) => void>();
  const specs = {} as Record<string, SpecModel>;
  for (const api of apiNames) specs[api] = await loadSpec(api);
  return (api: string, method: string, path: string, status: number, body: unknown) => {
    const spec = specs[api] as SpecModel;
    const operation = spec.route(method, path.split('?')[0] as string)?.operation;
    if (!operation) throw new Error(`no operation for ${method} ${path}`);
    const key = `${api} ${operation.operationId} ${status}`;
    let check = checkers.get(key);
    if (!check) {
      const response = spec.resolve(operation.responses[String(status)]);
      const content = (response.content as Body)['application/json'];
      const validate = spec.schemas().compile(content.schema);
      check = (_status, value) => {
        if (!validate(value)) throw new Error(`${key}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      };
      checkers.set(key, check);
    }
    check(status, body);
  };
}

async function call(method: string, path: string, body?: unknown, base = admin) {
  // Every call goes to one mall; its rate limit is not what these tests are about.
  served.malls.resetLimits(sandboxMall);
  const api = base === admin ? 'admin' : base === collection ? 'collection' : 'analytics';
  const headers: Record<string, string> =
    api === 'collection'
      ? { authorization: demoBasic }
      : {
          authorization: `Bearer ${(await issueDemoTokens(served.authority, api === 'admin' ? allScopes : ['mall.read_analytics'], sandboxMall)).access_token}`,
        };
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const parsed = (text ? JSON.parse(text) : {}) as Body;
  if (response.status < 300) checkResponse(api, method, path, response.status, parsed);
  return { status: response.status, body: parsed };
}

/** The Korean calendar day `days` days from now, `YYYY-MM-DD`. */
const kstDay = (days = 0) =>
  new Date(Date.now() + (9 * 60 + days * 24 * 60) * 60_000).toISOString().slice(0, 10);

const createCategory = async (request: Body) =>
  (await call('POST', '/api/v2/admin/categories', { shop_no: 1, request })).body.category as Body;
const createProduct = async (request: Body) =>
  (await call('POST', '/api/v2/admin/products', { shop_no: 1, request })).body.product as Body;

beforeAll(async () => {
  checkResponse = await responseChecker();
  served = await startMockServers({ ports: { admin: 0, collection: 0, analytics: 0 }, sandbox: {} });
  const url = (api: string) => served.mocks.find((m) => m.api === api)?.url ?? '';
  [admin, collection, analytics] = [url('admin'), url('collection'), url('analytics')];
});
afterAll(async () => {
  await served.close();
});

describe('query parameters handed to the sandbox', () => {
  it('hands the sandbox comma lists, numbers, enums and dates converted by the spec', async () => {
    const made = [];
    for (const [name, price] of [
      ['Range Alpha', '1000.00'],
      ['Range Beta', '2000.00'],
      ['Range Gamma', '3000.00'],
    ] as const)
      made.push(await createProduct({ product_name: name, supply_price: '500.00', price, selling: 'T' }));
    const numbers = made.map((p) => p.product_no).join(',');
    const byList = await call(
      'GET',
      `/api/v2/admin/products?product_no=${numbers}&price_min=1500&price_max=3000&sort=product_name&order=desc&fields=price,product_name&embed=discountprice`,
    );
    expect(byList.body.products.map((p: Body) => [p.product_name, Object.keys(p).length])).toEqual([
      ['Range Gamma', 4],
      ['Range Beta', 4],
    ]);
    const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
    const dated = await call(
      'GET',
      `/api/v2/admin/products/count?product_no=${numbers}&created_start_date=${today}&created_end_date=${today}`,
    );
    expect(dated.body.count).toBe(3);
  });

  it('refuses a limit over its maximum before the sandbox is asked', async () => {
    const over = await call('GET', '/api/v2/admin/categories?limit=101');
    expect(over.status).toBe(422);
  });
});

describe('body rules before the sandbox', () => {
  it('refuses more than 100 variants with 422 naming request.options, and creates nothing', async () => {
    const before = (await call('GET', '/api/v2/admin/products/count')).body.count;
    const tooMany = await call('POST', '/api/v2/admin/products', {
      shop_no: 1,
      request: {
        product_name: 'Too Many Variants',
        supply_price: '100.00',
        has_option: 'T',
        options: [
          { name: 'Color', value: Array.from({ length: 11 }, (_, i) => `Color ${i}`) },
          { name: 'Size', value: Array.from({ length: 10 }, (_, i) => `Size ${i}`) },
        ],
      },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.more_info.violations.map((v: Body) => v.name)).toEqual(['request.options']);
    expect((await call('GET', '/api/v2/admin/products/count')).body.count).toBe(before);
  });

  it('refuses an icon exposure period that ends first or has no end, and keeps the product as it was', async () => {
    const product = await createProduct({ product_name: 'Icon Period Tee', supply_price: '100.00' });
    const path = `/api/v2/admin/products/${product.product_no}`;
    const period = {
      use_icon_exposure_term: 'T',
      icon_exposure_begin_datetime: '2026-12-01T00:00:00+09:00',
      icon_exposure_end_datetime: '2026-12-24T23:59:59+09:00',
    };
    expect((await call('PUT', path, { shop_no: 1, request: period })).status).toBe(200);
    const reversed = await call('PUT', path, {
      shop_no: 1,
      request: { ...period, icon_exposure_end_datetime: '2026-11-30T00:00:00+09:00', product_name: 'Lost' },
    });
    expect(reversed.status).toBe(422);
    expect(reversed.body.error.more_info.violations.map((v: Body) => v.name)).toContain(
      'request.icon_exposure_end_datetime',
    );
    const { icon_exposure_end_datetime: _end, ...withoutEnd } = period;
    const incomplete = await call('PUT', path, { shop_no: 1, request: withoutEnd });
    expect(incomplete.status).toBe(422);
    expect(JSON.stringify(incomplete.body.error.more_info)).toContain('icon_exposure_end_datetime');
    const kept = (await call('GET', path)).body.product;
    expect(kept.product_name).toBe('Icon Period Tee');
    expect(kept.icon_show_period.end_date).toBe('2026-12-24T23:59:59+09:00');
  });
});

describe('mall settings', () => {
  let globalMall: Awaited<ReturnType<typeof startMockServers>>;
  const send = async (method: string, path: string, body?: unknown) => {
    globalMall.malls.resetLimits('globalmall');
    const token = (await issueDemoTokens(globalMall.authority, allScopes, 'globalmall')).access_token;
    const response = await fetch(`${globalMall.mocks[0]?.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Body };
  };
  const violationNames = (body: Body) => body.error.more_info.violations.map((v: Body) => v.name);
  beforeAll(async () => {
    globalMall = await startMockServers({
      apis: ['admin'],
      ports: { admin: 0 },
      sandbox: { seed: 2, mall: { globalEdition: true, ageVerification: true } },
    });
  });
  afterAll(async () => {
    await globalMall.close();
  });

  it('hands the sandbox option’s mall settings to the sandbox: a global-edition mall refuses a domestic shipping scope with 422 naming it', async () => {
    const domestic = await send('POST', '/api/v2/admin/products', {
      shop_no: 1,
      request: { product_name: 'Export Scarf', supply_price: '900.00' },
    });
    expect(domestic.status).toBe(422);
    expect(violationNames(domestic.body)).toContain('request.shipping_scope');
  });
});

describe('outcomes in HTTP', () => {
  it('says the sandbox’s outcomes in HTTP: 404, 422 naming the item, and 207 with per-item statuses', async () => {
    const category = await createCategory({ category_name: 'Placements' });
    const product = await createProduct({ product_name: 'Placed', supply_price: '1.00', display: 'T' });
    const noCategory = await call('POST', '/api/v2/admin/categories/999999/products', {
      request: { product_no: [product.product_no] },
    });
    expect(noCategory.status).toBe(404);
    const noProduct = await call('POST', `/api/v2/admin/categories/${category.category_no}/products`, {
      request: { product_no: [999999] },
    });
    expect(noProduct.status).toBe(422);
    expect(noProduct.body.error.more_info.violations[0].name).toBe('request.product_no/0');
    const partial = await call('POST', `/api/v2/admin/categories/${category.category_no}/products`, {
      request: { product_no: [product.product_no, 999999] },
    });
    expect(partial.status).toBe(207);
    expect(partial.body.product.product_no).toEqual([product.product_no]);
    expect(partial.body.results.map((item: { status: number }) => item.status)).toEqual([201, 422]);
    // A main display group's partial add: its own 207 schema (checked by `call`), each item's message.
    const main = await call('POST', '/api/v2/admin/mains/2/products', {
      request: { product_no: [999998, product.product_no] },
    });
    expect(main.status).toBe(207);
    expect(main.body.results).toEqual([
      { index: 0, product_no: 999998, status: 422, message: 'product 999998 does not exist' },
      { index: 1, product_no: product.product_no, status: 201 },
    ]);
  });
});

describe('concurrent writes', () => {
  it('keeps every one of 50 parallel creates, with consistent counts and distinct numbers', async () => {
    const before = (await call('GET', '/api/v2/admin/products/count')).body.count;
    const category = await createCategory({ category_name: 'Concurrent' });
    // Two waves of 25 at once: the mall's bucket admits 40 at a time.
    const wave = (first: number) =>
      Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          call('POST', '/api/v2/admin/products', {
            request: {
              product_name: `Parallel ${first + i}`,
              supply_price: '1.00',
              add_category_no: [{ category_no: category.category_no }],
            },
          }),
        ),
      );
    const results = [...(await wave(0)), ...(await wave(25))];
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => r.body.product.product_no)).size).toBe(50);
    expect((await call('GET', '/api/v2/admin/products/count')).body.count).toBe(before + 50);
    expect(
      (await call('GET', `/api/v2/admin/categories/${category.category_no}/products/count?display_group=1`))
        .body.count,
    ).toBe(50);
  });
});

describe('collection and analytics over the same data', () => {
  it('answers the collection from the sandbox: a product created through the admin API is counted', async () => {
    await createProduct({ product_name: 'Collection Visible Lamp', supply_price: '100.00', display: 'T' });
    const count = await call(
      'GET',
      '/api/products/count?collection_product_category=C900000&product_name=visible%20lamp',
      undefined,
      collection,
    );
    expect(count.status).toBe(200);
    expect(count.body.count).toBe(1);
  });

  it('answers every analytics operation from the token’s sandbox mall: records, not the documented example', async () => {
    // A displayed product on sale in a category, so every report has records.
    const shelf = await createCategory({ category_name: 'Analytics Shelf' });
    await createProduct({
      product_name: 'Analytics Lamp',
      supply_price: '1000.00',
      price: '3000.00',
      display: 'T',
      selling: 'T',
      add_category_no: [{ category_no: shelf.category_no, recommend: 'F' }],
    });
    const { document } = await loadSpec('analytics');
    const operations = indexOperations(document);
    expect(operations.length).toBeGreaterThan(1);
    expect(operations.map((operation) => operation.method)).toEqual(operations.map(() => 'get'));
    for (const { operationId, pathTemplate, responses } of operations) {
      const path = `${pathTemplate}?mall_id=${sandboxMall}&start_date=${kstDay()}&end_date=${kstDay(6)}&limit=1000`;
      const answer = await call('GET', path, undefined, analytics); // checked against the schema by call()
      expect(answer.status, operationId).toBe(200);
      expect((Object.values(answer.body)[0] as Body[]).length, operationId).toBeGreaterThan(0);
      const content = (resolve(document, responses['200']).content as Body)['application/json'];
      for (const example of Object.values(content.examples as Body))
        expect(answer.body, operationId).not.toEqual(resolve(document, example).value);
    }
  });
});

describe('the sandbox option', () => {
  it('keeps a data directory’s malls across a restart of the mock', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mall-sandbox-'));
    const open = () =>
      startMockServers({ apis: ['admin'], ports: { admin: 0 }, sandbox: { store: { dataDir } } });
    const headers = async (started: Awaited<ReturnType<typeof open>>) => ({
      authorization: `Bearer ${(await issueDemoTokens(started.authority, allScopes, 'persistmall')).access_token}`,
      'content-type': 'application/json',
    });
    try {
      const first = await open();
      const created = await fetch(`${first.mocks[0]?.url}/api/v2/admin/categories`, {
        method: 'POST',
        headers: await headers(first),
        body: JSON.stringify({ request: { category_name: 'Persistent' } }),
      });
      const categoryNo = ((await created.json()) as Body).category.category_no;
      await first.close();
      const second = await open();
      const read = await fetch(`${second.mocks[0]?.url}/api/v2/admin/categories/${categoryNo}`, {
        headers: await headers(second),
      });
      expect(((await read.json()) as Body).category.category_name).toBe('Persistent');
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serves open sandbox malls as they are, and leaves them open on close', async () => {
    const sandbox = await createSandboxMalls({ newMall: 'empty' });
    try {
      const started = await startMockServers({ apis: ['admin'], ports: { admin: 0 }, sandbox });
      expect(started.sandbox).toBe(sandbox);
      const token = (await issueDemoTokens(started.authority, allScopes, 'openmall')).access_token;
      const created = await fetch(`${started.mocks[0]?.url}/api/v2/admin/categories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ request: { category_name: 'Given' } }),
      });
      expect(created.status).toBe(201);
      await started.close();
      const counted = await sandbox.handle({
        api: 'admin',
        operationId: 'countCategories',
        path: {},
        query: {},
        body: undefined,
        mallId: 'openmall',
      });
      expect(counted).toMatchObject({ ok: true, body: { count: 1 } });
    } finally {
      await sandbox.close();
    }
  });
});
