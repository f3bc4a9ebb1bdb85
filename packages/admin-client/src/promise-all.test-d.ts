// Calls of one admin client combine: `Promise.all` and `Promise.allSettled` over a mix of methods,
// paths with and without init, and per-call `throwOnError`, compile (they used to fail with TS2590,
// "union type too complex", in the default non-throwing mode) and keep each call's own result type.
import { describe, expectTypeOf, it } from 'vitest';
import { createAdminClient } from './index.js';

const client = createAdminClient({ mallId: 'demomall', auth: { accessToken: 'token' } });
const strict = createAdminClient({ mallId: 'demomall', auth: { accessToken: 'token' }, throwOnError: true });

describe('combined admin calls', () => {
  it('Promise.all over two GETs, one without init, in the non-throwing mode', async () => {
    const [category, count] = await Promise.all([
      client.GET('/api/v2/admin/categories/{category_no}', { params: { path: { category_no: 44 } } }),
      client.GET('/api/v2/admin/products/count'),
    ]);
    expectTypeOf(category.data?.category.category_no).toEqualTypeOf<number | undefined>();
    expectTypeOf(count.data?.count).toEqualTypeOf<number | undefined>();
    expectTypeOf(count.error?.error.message).toEqualTypeOf<string | undefined>();
  });

  it('Promise.all over GET, POST, PUT and DELETE, one throwing per call', async () => {
    const [products, created, updated, deleted, thrown] = await Promise.all([
      client.GET('/api/v2/admin/products', { params: { query: { limit: 10 } } }),
      client.POST('/api/v2/admin/categories', { body: { request: { category_name: 'Scarves' } } }),
      client.PUT('/api/v2/admin/categories/{category_no}', {
        params: { path: { category_no: 44 } },
        body: { request: { category_name: 'Linen' } },
      }),
      client.DELETE('/api/v2/admin/categories/{category_no}', { params: { path: { category_no: 44 } } }),
      client.GET('/api/v2/admin/categories/count', { throwOnError: true }),
    ]);
    expectTypeOf(products.data?.products[0]?.product_no).toEqualTypeOf<number | undefined>();
    expectTypeOf(created.data?.category.category_name).toEqualTypeOf<string | undefined>();
    expectTypeOf(updated.data?.category.category_no).toEqualTypeOf<number | undefined>();
    expectTypeOf(deleted.response).toEqualTypeOf<Response>();
    // A throwing call resolves to its success branch only.
    expectTypeOf(thrown.data.count).toEqualTypeOf<number>();
  });

  it('Promise.allSettled over a mix, and Promise.all on a throwing client', async () => {
    const settled = await Promise.allSettled([
      client.GET('/api/v2/admin/mains'),
      client.GET('/api/v2/admin/categories', { params: { query: { limit: 5 } } }),
      client.POST('/api/v2/admin/products', {
        body: { request: { product_name: 'Linen Scarf', supply_price: '12000.00' } },
      }),
    ]);
    const [mains] = settled;
    if (mains.status === 'fulfilled')
      expectTypeOf(mains.value.data?.mains[0]?.module_code).toEqualTypeOf<string | undefined>();
    const [count, categories] = await Promise.all([
      strict.GET('/api/v2/admin/products/count'),
      strict.GET('/api/v2/admin/categories', {}),
    ]);
    expectTypeOf(count.data.count).toEqualTypeOf<number>();
    expectTypeOf(categories.data.categories[0]?.category_no).toEqualTypeOf<number | undefined>();
  });
});
