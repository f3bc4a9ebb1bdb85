// The collection client's generated methods against the real mock (the sandbox's partner view):
// a list with flat filters resolving to the body, a count that agrees with the list read whole
// through `all`, and a bad filter thrown as the client's typed error with the violated field.
import { type StartedMock, startMock } from '@mall-api/mock-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CollectionClient, createCollectionClient, isMallApiError } from './index.js';

let mock: StartedMock;
let collection: CollectionClient;
beforeAll(async () => {
  mock = await startMock({ apis: ['collection'] });
  collection = createCollectionClient({
    ...mock.credentials.collection,
    baseUrl: mock.urls.collection ?? '',
  });
});
afterAll(async () => {
  await mock.close();
});

describe('collection operation methods', () => {
  it('lists shops with flat filters and resolves to the body', async () => {
    const { shops } = await collection.shops.list({ limit: 1 });
    expect(shops).toHaveLength(1);
    expect(typeof shops[0]?.shop_name).toBe('string');
  });

  it('counts what all reads page by page', async () => {
    const category = { collection_product_category: ['C100210'] };
    const { count } = await collection.products.count(category);
    const read: string[] = [];
    for await (const product of collection.products.list.all({ ...category, limit: 2 }))
      read.push(product.product_ukey);
    expect(count).toBeGreaterThan(2);
    expect(read).toHaveLength(count);
  });

  it('throws MallApiError naming the field of a bad filter', async () => {
    const failure = await collection.shops.list({ limit: 0 }).catch((error: unknown) => error);
    expect(isMallApiError(failure, 'validation', 'bad_request')).toBe(true);
    expect(JSON.stringify((failure as { moreInfo: unknown }).moreInfo)).toContain('limit');
  });
});
