// The decisions the specs state where the seeds left a choice, each checked against the bundle:
// a category key S or C needs its period in the same update (no unreachable stored-period rule);
// the collection `shop_properties` filter is declared and marked inferred; the analytics refill
// header follows the rule over the example; every operation's request limit is its API's limit.
import { describe, expect, it } from 'vitest';
import { loadBundle, schemaValidator } from './schema-validator.js';

type Node = Record<string, unknown>;
const admin = loadBundle('admin');
const collection = loadBundle('collection');
const analytics = loadBundle('analytics');

const operation = (document: typeof admin, path: string, method: string) =>
  (document.paths[path] as Record<string, Node>)[method] as Node;

/** Every string a document gives as an example (`example`, `examples`, an Example's `value`), deep. */
function exampleStrings(node: unknown, inExample = false): string[] {
  if (typeof node === 'string') return inExample ? [node] : [];
  if (Array.isArray(node)) return node.flatMap((item) => exampleStrings(item, inExample));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    ['description', 'summary', '$comment'].includes(key)
      ? []
      : exampleStrings(value, inExample || ['example', 'examples', 'value'].includes(key)),
  );
}

describe('spec decisions', () => {
  it('an update with a display key S or C but no period is refused by the schema, not completed from storage', () => {
    const validate = schemaValidator(admin);
    const errors = validate('/components/schemas/UpdateCategoryRequest', {
      request: { product_display_key: 'S' },
    });
    expect(errors.join('\n')).toContain('product_display_period');
    expect(
      validate('/components/schemas/UpdateCategoryRequest', { request: { product_display_key: 'N' } }),
    ).toEqual([]);
    const update = operation(admin, '/api/v2/admin/categories/{category_no}', 'put');
    expect(JSON.stringify(update['x-mock-enforced'])).not.toContain('stored period');
    expect(String(update.description)).toContain('does not use a stored period in its place');
  });

  it('declares the shop_properties filter of collection seed 4.1, marked inferred, over Shop attributes', () => {
    const list = operation(collection, '/api/shops', 'get');
    const parameters = (list.parameters as Node[]).map((p) =>
      typeof p.$ref === 'string'
        ? (collection.components.parameters as Record<string, Node>)[p.$ref.split('/').pop() as string]
        : p,
    );
    const shopProperties = parameters.find((p) => p?.name === 'shop_properties') as Node;
    const filter = shopProperties['x-query'] as Node;
    expect(filter['x-provenance']).toBe('inferred');
    const attributes = filter.attributes as string[];
    const shop = (collection.components.schemas as Record<string, Node>).Shop as Node;
    for (const attribute of attributes) expect(Object.keys(shop.properties as Node)).toContain(attribute);
    expect(((shopProperties.schema as Node).items as Node).pattern).toBe('^[a-z_]+:[^,:]+$');
  });

  it('the analytics refill header follows the rule (0.5 tokens per second) and says it is inferred', () => {
    const limit = analytics['x-rate-limit'] as Node;
    expect(limit).toMatchObject({ 'refill-interval-seconds': 2, 'x-provenance': 'inferred' });
    expect(String(limit.description)).toContain('pace by the rule');
    const header = (analytics.components.headers as Record<string, Node>)['XRateLimitReplenishRate'] as Node;
    // The seed's example value is shown beside the value the rule gives, and the description explains.
    expect(header).toMatchObject({
      examples: { SeedExample: { value: 2 }, OneTokenEveryTwoSeconds: { value: 0.5 } },
      'x-provenance': 'inferred',
    });
    expect(String(header.description)).toContain('four times the rule');
  });

  it.each([
    ['collection', collection, 'limit'],
    ['admin', admin, 'capacity'],
  ] as const)('every %s operation states the request limit of its x-rate-limit', (_, document, key) => {
    const limit = (document['x-rate-limit'] as Node)[key];
    const limits = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, Node>).map((op) => op['x-request-limit']),
    );
    expect(new Set(limits)).toEqual(new Set([limit]));
  });
});

describe('provenance labels (issue 25)', () => {
  const parameters = collection.components.parameters as Record<string, Node>;
  // The collection filters the platform reference documents in full (its GET /api/shops and
  // GET /api/products tables) where the seed shortens the name (`price_...` min / max): labelled
  // reference, or left as seed facts where the seed names them; the bounds we add are marked
  // inferred on the schema that states them, with the reason.
  const documented = {
    reference: [
      'CollectionStoreCategory',
      'StoreId',
      'ShopTags',
      'CollectionProductCategory',
      'ProductUkeyList',
      'PriceMin',
      'PriceMax',
      'PcDiscountPriceMin',
      'PcDiscountPriceMax',
      'MobileDiscountPriceMin',
      'MobileDiscountPriceMax',
      'PcDiscountRateMin',
      'PcDiscountRateMax',
      'MobileDiscountRateMin',
      'MobileDiscountRateMax',
      'ReviewCountMin',
      'ReviewCountMax',
      'BrandName',
      'StoreIdList',
      'ProductName',
    ],
    seed: ['ShopNameList', 'ProductNameList'],
  };

  it.each([
    ...documented.reference.map((name) => [name, 'reference'] as const),
    ...documented.seed.map((name) => [name, undefined] as const),
  ])('%s is labelled as its source documents it; the bound we add is marked inferred', (name, label) => {
    const parameter = parameters[name] as Node;
    expect(parameter['x-provenance']).toBe(label);
    const schema = parameter.schema as Node;
    const bounded = schema.type === 'array' ? (schema.items as Node) : schema;
    expect(bounded['x-provenance']).toBe('inferred');
    expect(String(bounded.$comment)).toMatch(/(is|are) ours \(the reference states none\)/);
  });

  it('the rules the reference states are labelled reference: exclusive collection filters, the 24th analytics endpoint', () => {
    for (const path of ['/api/products', '/api/products/count']) {
      const list = operation(collection, path, 'get');
      expect(list['x-mutually-exclusive']).toContainEqual(['product_ukey', 'store_id']);
      expect(list['x-provenance']).toBe('reference');
    }
    expect(operation(analytics, '/sales/orderdetails', 'get')['x-provenance']).toBe('reference');
  });

  it('every fact labelled inferred says why, in a description or a $comment beside the label', () => {
    const unexplained: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (typeof node !== 'object' || node === null) return;
      const fields = node as Node;
      if (fields['x-provenance'] === 'inferred' && !fields.description && !fields.$comment)
        unexplained.push(at);
      for (const [key, value] of Object.entries(fields)) walk(value, `${at}/${key}`);
    };
    for (const [name, document] of Object.entries({ admin, collection, analytics })) walk(document, name);
    expect(unexplained).toEqual([]);
  });
});

describe('versions, 207, HTTPS on OAuth, examples (issue 25)', () => {
  const parameters = admin.components.parameters as Record<string, Node>;

  it('the admin version header is any release date, the latest by default; x-api-versions lists the described ones', () => {
    const versions = admin['x-api-versions'] as Node;
    const dates = (versions.versions as Node[]).map((v) => v.date);
    const header = parameters.PlatformApiVersion as Node;
    expect(header.name).toBe(versions.header);
    // One rule, stated once: the header takes any date (no enum to contradict the fallback) and
    // x-api-versions says which dates are described and how the others are answered.
    expect((header.schema as Node).enum).toBeUndefined();
    expect((header.schema as Node).default).toBe(dates[0]);
    // The reference documents the fallback for an expired version only; answering every undescribed
    // date so goes beyond it, and the mark says so.
    const unknown = versions['unknown-version'] as Node;
    expect(unknown).toMatchObject({ 'answered-as': 'oldest', 'x-provenance': 'inferred' });
    expect(String(unknown.description)).toMatch(/version past its support as the oldest supported one/);
    const validate = schemaValidator(admin);
    const headerSchema = '/components/parameters/PlatformApiVersion/schema';
    for (const date of [...dates, '2031-12-31', '2019-01-01', '2024-09-01'])
      expect(validate(headerSchema, date), date).toEqual([]);
    for (const malformed of ['latest', '2020-9-1', '2020-02-31'])
      expect(validate(headerSchema, malformed), malformed).not.toEqual([]);
    for (const other of [collection, analytics])
      expect(other['x-api-versions']).toMatchObject({ versions: [], 'x-provenance': 'seed' });
  });

  it('info.version of every spec is a plain semantic version: a description revision, no pre-release', () => {
    for (const document of [admin, collection, analytics])
      expect(String((document as Node & { info: Node }).info.version)).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('a 207 is a success body listing each item status, not the error envelope', () => {
    const validate = schemaValidator(admin);
    for (const [path, schema] of [
      ['/api/v2/admin/categories/{category_no}/products', 'CategoryProductMultiStatus'],
      ['/api/v2/admin/mains/{display_group}/products', 'MainProductMultiStatus'],
    ] as const) {
      const multi = (operation(admin, path, 'post').responses as Record<string, Node>)['207'] as Node;
      const resolved = (admin.components.responses as Record<string, Node>)[
        String(multi.$ref).split('/').pop() as string
      ] as Node;
      const content = (resolved.content as Record<string, Node>)['application/json'] as Node;
      expect((content.schema as Node).$ref).toBe(`#/components/schemas/${schema}`);
      expect(resolved['x-provenance']).toBe('inferred');
      const pointer = `/components/schemas/${schema}`;
      expect(validate(pointer, { error: { code: 'x', message: 'y', more_info: {} } })).not.toEqual([]);
    }
    expect((admin.components.schemas as Record<string, Node>).ItemStatusList?.['x-provenance']).toBe(
      'inferred',
    );
  });

  it('the OAuth endpoints document 403 for a request that is not HTTPS', () => {
    for (const [path, method] of [
      ['/api/v2/oauth/authorize', 'get'],
      ['/api/v2/oauth/token', 'post'],
    ] as const)
      expect(Object.keys(operation(admin, path, method).responses as Node)).toContain('403');
  });

  it('every analytics date-time in an example, anywhere in the bundle, has seconds (HH:MM:SS+09:00)', () => {
    const dateTimes = exampleStrings(analytics).filter((value) => /^\d{4}-\d{2}-\d{2}T/.test(value));
    expect(dateTimes.length).toBeGreaterThan(70);
    for (const value of dateTimes) expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$/);
  });

  it.each([
    ['collection', collection, 'limit'],
    ['analytics', analytics, 'capacity'],
  ] as const)('the remaining-calls example of %s fits its bucket', (_, document, key) => {
    const remaining = (document.components.headers as Record<string, Node>).XRateLimitRemaining as Node;
    const size = (document['x-rate-limit'] as Node)[key] as number;
    expect(remaining.example as number).toBeLessThanOrEqual(size);
  });
});
