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
    expect(String(update.description)).toContain('a stored period is not used');
  });

  it('declares the shop_properties filter of collection seed 4.1, marked inferred, over Shop attributes', () => {
    const list = operation(collection, '/api/shops', 'get');
    const parameters = (list.parameters as Node[]).map((p) =>
      typeof p.$ref === 'string'
        ? (collection.components.parameters as Record<string, Node>)[p.$ref.split('/').pop() as string]
        : p,
    );
    const shopProperties = parameters.find((p) => p?.name === 'shop_properties') as Node;
    const filter = shopProperties['x-filter'] as Node;
    expect(filter['x-provenance']).toBe('inferred');
    const attributes = filter.attributes as string[];
    const shop = (collection.components.schemas as Record<string, Node>).Shop as Node;
    for (const attribute of attributes) expect(Object.keys(shop.properties as Node)).toContain(attribute);
    expect(((shopProperties.schema as Node).items as Node).pattern).toBe('^[a-z_]+:[^,:]+$');
  });

  it('the analytics refill header follows the rule (0.5 tokens per second) and says it is inferred', () => {
    const limit = analytics['x-rate-limit'] as Node;
    expect(limit).toMatchObject({ 'refill-interval-seconds': 2, 'x-provenance': 'inferred' });
    expect(String(limit.description)).toContain('contradicts');
    const header = (analytics.components.headers as Record<string, Node>)['XRateLimitReplenishRate'] as Node;
    expect(header).toMatchObject({ example: 0.5, 'x-provenance': 'inferred' });
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
