// Type-level behaviour of the collection client: paths, parameters and response data are typed
// from the spec, and misuse does not compile.
import { describe, expectTypeOf, it } from 'vitest';
import { createCollectionClient } from './index.js';

const client = createCollectionClient({ clientId: 'id', clientSecret: 'secret' });

describe('collection client types', () => {
  it('types response data from the spec', async () => {
    const { data } = await client.GET('/api/products', {
      params: { query: { collection_product_category: ['C1'] } },
    });
    expectTypeOf(data?.products[0]?.price).toEqualTypeOf<string | undefined>();
    expectTypeOf(data?.products[0]?.shop_grade).toEqualTypeOf<
      'black' | 'purple' | 'green' | 'orange' | undefined
    >();
  });

  it('rejects unknown paths, missing required parameters and bad enum values', () => {
    // @ts-expect-error: no such path
    void client.GET('/api/product');
    // @ts-expect-error: collection_product_category is required
    void client.GET('/api/products', { params: { query: {} } });
    // @ts-expect-error: not a language of the enum
    void client.GET('/api/shops', { params: { query: { shop_language: 'xx_XX' } } });
  });

  it('types paginate items by endpoint', async () => {
    const iterate = async () => {
      for await (const shop of client.paginate('/api/shops', { shop_grade: 'black' })) {
        expectTypeOf(shop.store_id).toEqualTypeOf<string>();
      }
      for await (const product of client.paginate('/api/storeproducts', { store_id: ['a'] })) {
        expectTypeOf(product.product_no).toEqualTypeOf<number>();
      }
    };
    expectTypeOf(iterate).returns.resolves.toBeVoid();
  });
});
