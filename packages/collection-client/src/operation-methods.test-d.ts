// Type-level behaviour of the collection client's generated methods: flat query input with the
// spec's required filters required, results typed as the success body, `all` yielding records
// without offset, and misuse not compiling.
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollectionClient } from './index.js';

const collection = createCollectionClient({ clientId: 'id', clientSecret: 'secret' });

describe('collection operation method types', () => {
  it('takes filters flat and resolves to the body', async () => {
    const { shops } = await collection.shops.list({ limit: 10, sort: 'created_date' });
    expectTypeOf(shops).toEqualTypeOf<components['schemas']['Shop'][]>();
    const { count } = await collection.products.count({ collection_product_category: ['C100210'] });
    expectTypeOf(count).toEqualTypeOf<number>();
  });

  it('requires what the spec requires', () => {
    // @ts-expect-error: collection_product_category is required
    void collection.products.list({ limit: 10 });
    // @ts-expect-error: store_id is required
    void collection.storeproducts.list();
    void collection.storeproducts.list({ store_id: ['demomall'] });
  });

  it('pages with all, yielding records, without offset', () => {
    expectTypeOf(collection.shops.list.all()).toEqualTypeOf<AsyncGenerator<components['schemas']['Shop']>>();
    // @ts-expect-error: all owns the offset
    void collection.shops.list.all({ offset: 100 });
  });
});
