// The code-generation step's modules at the function, over the real bundles: list keys with their
// cursors, operation ids with the client's User-Agent, API versions only where a header names
// them, and the rate-limit table keyed by every API name.
import { apiNames, loadSpecSync } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { apiVersionsModule } from '../src/codegen/api-versions.mjs';
import { eventNumbersModule } from '../src/codegen/event-numbers.mjs';
import { listKeysModule } from '../src/codegen/list-keys.mjs';
import { operationIdsModule } from '../src/codegen/operation-ids.mjs';
import { operationMethodsModule, operationTree } from '../src/codegen/operation-methods.mjs';
import { rateLimitModules } from '../src/codegen/rate-limits.mjs';

describe('listKeysModule', () => {
  it('lists each list operation’s array key, paging bounds and keyset cursor', () => {
    const text = listKeysModule(loadSpecSync('admin'));
    expect(text).toMatch(/^export const listEndpoints = \{/);
    expect(text).toContain("'/api/v2/admin/products': {\n    key: 'products',\n    pageable: true,");
    expect(text).toMatch(
      /cursor: \{ parameter: 'since_product_no', field: 'product_no', excludes: \['product_no', 'sort', 'order', 'offset'\] \}/,
    );
  });
});

describe('operationIdsModule', () => {
  it('maps paths and methods to operation ids and names the client in its User-Agent', () => {
    const text = operationIdsModule(loadSpecSync('collection'), {
      name: '@mall-api/collection-client',
      version: '1.2.3',
    });
    expect(text).toContain("GET: 'listProducts'");
    expect(text).toContain("export const userAgent = 'mall-api-collection-client/1.2.3';");
    expect(text).toMatch(/export const httpsOnly = (true|false);/);
  });
});

describe('operationTree', () => {
  it('names each method from the path below the shared prefix and the operationId’s verb', () => {
    const { tree: admin, wrap } = operationTree(loadSpecSync('admin'));
    expect(admin.products).toMatchObject({
      list: { leaf: 'get /api/v2/admin/products' },
      count: { leaf: 'get /api/v2/admin/products/count' },
      create: { leaf: 'post /api/v2/admin/products' },
      get: { leaf: 'get /api/v2/admin/products/{product_no}' },
    });
    expect(admin.categories).toHaveProperty(
      'products.count.leaf',
      'get /api/v2/admin/categories/{category_no}/products/count',
    );
    // The webhook setting's body takes no shop_no beside `request`; the products' bodies do.
    expect(admin.webhooks).toHaveProperty('setting.update.leaf', 'put /api/v2/admin/webhooks/setting');
    expect(wrap).toEqual({ key: 'request', beside: ['shop_no'] });
    // The OAuth endpoints are not called with the client's credentials.
    expect(Object.keys(admin).sort()).toEqual([
      'bundleproducts',
      'categories',
      'mains',
      'products',
      'webhooks',
    ]);
    const analytics = operationTree(loadSpecSync('analytics'));
    expect(analytics.tree).toHaveProperty('visitors.unique.list.leaf', 'get /visitors/unique');
    expect(analytics.wrap).toBeUndefined();
  });

  it('types each method over the client’s operations, all omitting the keyset cursor', () => {
    const text = operationMethodsModule(loadSpecSync('admin'), 'admin');
    expect(text).toContain("import type { operations } from '@mall-api/specs/types/admin';");
    expect(text).toContain(
      "list: PagedOperationMethod<operations['listProducts'], 'products', 'offset' | 'since_product_no'>;",
    );
    expect(text).toContain("create: OperationMethod<operations['createCategory'], 'request'>;");
    expect(text).toContain('export const adminMethods: OperationTable = {');
    expect(text).toContain('  wrap: {"key":"request","beside":["shop_no"]},');
  });
});

describe('apiVersionsModule', () => {
  it('writes the release dates of an API whose spec names a version header, and nothing for the others', () => {
    expect(apiVersionsModule(loadSpecSync('admin'))).toMatch(
      /export const apiVersions = \["\d{4}-\d{2}-\d{2}"/,
    );
    expect(apiVersionsModule(loadSpecSync('collection'))).toBeUndefined();
  });
});

describe('rateLimitModules', () => {
  it('writes one limit module per API and the table of them by name', () => {
    const modules = rateLimitModules(apiNames.map((api) => ({ api, model: loadSpecSync(api) })));
    expect(modules.map((m) => m.file)).toEqual([
      ...apiNames.map((api) => `${api}-limit.ts`),
      'rate-limits.ts',
    ]);
    const admin = modules.find((m) => m.file === 'admin-limit.ts')?.text ?? '';
    expect(admin).toContain("import { leakyBucket } from '../algorithms/leaky-bucket.js';");
    expect(admin).not.toContain('counted-per');
    expect(modules.at(-1)?.text).toContain(
      `export const rateLimits = { ${apiNames.map((api) => `${api}: ${api}RateLimit`).join(', ')} } as const;`,
    );
  });
});

describe('eventNumbersModule', () => {
  it('lists the event numbers of the admin spec’s webhooks, and writes nothing for an API without events', () => {
    const text = eventNumbersModule(loadSpecSync('admin')) ?? '';
    expect(text).toMatch(/^export const eventNumbers = \[90001,90002,90003,[\d,]+\] as const;$/m);
    expect(text.match(/\d{5}/g)).toHaveLength(12);
    expect(eventNumbersModule(loadSpecSync('collection'))).toBeUndefined();
  });
});
