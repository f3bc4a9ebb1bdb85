// The validating proxy in front of a real service (our stateful mock stands in for it, and a
// broken copy of it for a service that drifted): traffic passes unchanged, every violation of the
// request or the answer is journaled (queryable and verify-able through the control API) and
// logged, no credential is stored, and recorded answers load back as a sandbox fixture.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpec } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../qa/control-client.js';
import { type StartedMock, startMock } from '../qa/start-mock.js';
import { createFixtureRecorder } from './fixture-recorder.js';
import { type RunningProxy, startValidatingProxy } from './validating-proxy.js';

let mock: StartedMock;
let proxy: RunningProxy;
let token: string;
let scratch: string;
const lines: string[] = [];
const mall = 'proxied';
const at = (path: string) => `${proxy.url}/__mall/${mall}${path}`;
const get = (path: string) => fetch(at(path), { headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  mock = await startMock({ apis: ['admin'] });
  token = (await mock.token(mall)).access_token;
  scratch = mkdtempSync(join(tmpdir(), 'proxy-'));
  proxy = await startValidatingProxy({
    api: 'admin',
    target: mock.urls.admin ?? '',
    log: (line) => lines.push(line),
    recorder: await createFixtureRecorder(await loadSpec('admin'), scratch),
  });
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the validating proxy in front of a conforming service', () => {
  it('forwards requests and answers unchanged and journals no violation for conforming traffic', async () => {
    const through = await get('/api/v2/admin/categories?limit=3');
    const direct = await fetch(`${mock.mallUrl('admin', mall)}/api/v2/admin/categories?limit=3`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(through.status).toBe(200);
    expect(await through.json()).toEqual(await direct.json());
    expect(through.headers.get('x-api-call-limit')).toMatch(/^\d+\/40$/);
    const control = createControlClient(proxy.url);
    await control.verify(mall, { operationId: 'listCategories', violated: false, times: 1 });
    await control.verify(mall, { violated: true, times: 0 });
  });

  it('journals and logs a request that breaks a rule, naming the field, and still forwards it', async () => {
    const answer = await get('/api/v2/admin/categories?limit=0');
    expect(answer.status).toBe(422);
    const control = createControlClient(proxy.url);
    const [entry] = await control.verify(mall, { operationId: 'listCategories', violated: true, times: 1 });
    expect(entry?.violations).toEqual(['request query limit: must be >= 1']);
    expect(lines.some((line) => line.includes('listCategories: request query limit: must be >= 1'))).toBe(
      true,
    );
  });

  it('never stores or logs a credential', async () => {
    const basic = Buffer.from('demo-app:demo-app-secret').toString('base64');
    await fetch(at('/api/v2/oauth/token'), {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'a-refresh-token-secret' }),
    });
    const journal = JSON.stringify(await createControlClient(proxy.url).journal(mall));
    for (const secret of [token, basic, 'demo-app-secret', 'a-refresh-token-secret']) {
      expect(journal).not.toContain(secret);
      expect(lines.join('\n')).not.toContain(secret);
    }
    expect(journal).toContain('[redacted]');
  });

  it('records every record kind of the fixture format, and the control API loads it into another mall', async () => {
    // Few enough requests for the mall's bucket (40): the lists, then what a few categories hold.
    await get('/api/v2/admin/products?limit=100');
    const bundles = (await (await get('/api/v2/admin/bundleproducts?limit=5')).json()) as {
      bundleproducts: { bundle_product_components: { product_no: number }[] }[];
    };
    const components = bundles.bundleproducts.flatMap((b) =>
      b.bundle_product_components.map((c) => c.product_no),
    );
    await get(`/api/v2/admin/products?limit=100&product_no=${[...new Set(components)].join(',')}`);
    const categories = (await (await get('/api/v2/admin/categories?limit=100')).json()) as {
      categories: { category_no: number }[];
    };
    for (const { category_no } of categories.categories.slice(0, 8))
      await get(`/api/v2/admin/categories/${category_no}/products?display_group=1`);
    const mains = (await (await get('/api/v2/admin/mains')).json()) as { mains: { display_group: number }[] };
    for (const { display_group } of mains.mains) await get(`/api/v2/admin/mains/${display_group}/products`);
    const fixture = JSON.parse(readFileSync(join(scratch, `${mall}.json`), 'utf8'));
    for (const section of ['categories', 'products', 'bundles', 'placements'])
      expect(fixture[section].length, section).toBeGreaterThan(0);
    const placedIn = (field: string) =>
      fixture.placements.filter((p: Record<string, unknown>) => field in p).length;
    expect(placedIn('category_no')).toBeGreaterThan(0);
    expect(placedIn('main_display_group')).toBeGreaterThan(0);
    // A bundle's components name recorded products by reference, as the format asks.
    expect(JSON.stringify(fixture.bundles[0].bundle_product_components)).toContain('"$ref":"products-');
    // The mall's counts after the load (its own seeded data included): every record was taken.
    const counts = (await mock.control.loadFixture('loaded', fixture)) as Record<string, number>;
    for (const section of ['categories', 'products', 'bundles'])
      expect(counts[section], section).toBeGreaterThanOrEqual(fixture[section].length);
    const loadedToken = (await mock.token('loaded')).access_token;
    const names = async (mallId: string, bearer: string) => {
      const response = await fetch(`${mock.mallUrl('admin', mallId)}/api/v2/admin/categories?limit=100`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      return ((await response.json()) as { categories: { category_name: string }[] }).categories.map(
        (c) => c.category_name,
      );
    };
    expect(await names('loaded', loadedToken)).toEqual(
      expect.arrayContaining(fixture.categories.map((c: { category_name: string }) => c.category_name)),
    );
  });
});

describe('the validating proxy in front of a service that drifted', () => {
  let broken: Server;
  let drifted: RunningProxy;

  beforeAll(async () => {
    // A copy of the mock that answers listCategories with the category numbers as strings and no rate-limit header.
    broken = createServer(async (request, response) => {
      const answer = await fetch(`${mock.urls.admin}${request.url}`, {
        headers: { authorization: request.headers.authorization ?? '' },
      });
      const body = (await answer.json()) as { categories?: { category_no: unknown }[] };
      for (const category of body.categories ?? []) category.category_no = String(category.category_no);
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    drifted = await startValidatingProxy({
      api: 'admin',
      target: `http://127.0.0.1:${(broken.address() as AddressInfo).port}`,
    });
  });
  afterAll(async () => {
    await drifted?.close();
    await new Promise((resolve) => broken?.close(resolve));
  });

  it('reports what the answer breaks in the journal', async () => {
    const answer = await fetch(`${drifted.url}/__mall/${mall}/api/v2/admin/categories?limit=2`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(200);
    const [entry] = await createControlClient(drifted.url).verify(mall, { violated: true, times: 1 });
    expect(entry?.violations).toEqual(
      expect.arrayContaining([
        'answer body/categories/0/category_no must be integer',
        'answer header X-Api-Call-Limit is missing',
      ]),
    );
  });
});

describe('the validating proxy and large bodies', () => {
  it('refuses a body over its limit with a 413 envelope, on a route it knows and on one it does not', async () => {
    const small = await startValidatingProxy({
      api: 'admin',
      target: mock.urls.admin ?? '',
      maxBodyBytes: 64,
    });
    try {
      for (const path of ['/api/v2/admin/categories', '/api/v2/admin/no-such-resource']) {
        const answer = await fetch(`${small.url}/__mall/${mall}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ request: { category_name: 'x'.repeat(500) } }),
        });
        expect(answer.status).toBe(413);
        expect(await answer.json()).toMatchObject({ error: { code: expect.any(String) } });
      }
    } finally {
      await small.close();
    }
  });
});
