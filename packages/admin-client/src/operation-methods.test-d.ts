// Type-level behaviour of the admin client's generated methods: flat input typed from the
// operation's path, query and body (required fields required, defaults optional, the write
// wrapper lifted), results typed as the success body (never undefined), `all` yielding the
// list's records without offset or keyset cursor, and misuse not compiling.
import { describe, expectTypeOf, it } from 'vitest';
import { type AdminListItem, createAdminClient } from './index.js';

const admin = createAdminClient({ mallId: 'demomall', auth: { accessToken: 'token' } });

describe('admin operation method types', () => {
  it('takes list filters flat and resolves to the body', async () => {
    const { products } = await admin.products.list({ category: 24, limit: 10, display: 'T' });
    expectTypeOf(products).toEqualTypeOf<AdminListItem<'/api/v2/admin/products'>[]>();
    expectTypeOf(await admin.products.count()).toEqualTypeOf<{ count: number }>();
    // @ts-expect-error: a flag is T or F
    void admin.products.list({ display: 'Y' });
    // @ts-expect-error: no such filter
    void admin.products.list({ colour: 'red' });
  });

  it('takes a create’s fields flat, shop_no beside them, and requires what the spec requires', async () => {
    const { product } = await admin.products.create({
      product_name: 'Linen shirt',
      price: '39000',
      supply_price: '20000',
    });
    expectTypeOf(product.product_no).toEqualTypeOf<number>();
    void admin.categories.create({ shop_no: 2, category_name: 'Shirts' });
    // @ts-expect-error: category_name is required
    void admin.categories.create({ shop_no: 2 });
    // @ts-expect-error: the wrapper is the method's job
    void admin.categories.create({ request: { category_name: 'Shirts' } });
  });

  it('requires path parameters beside the fields', async () => {
    const { category } = await admin.categories.update({ category_no: 44, category_name: 'Coats' });
    expectTypeOf(category.category_no).toEqualTypeOf<number>();
    // @ts-expect-error: category_no is required
    void admin.categories.get({});
    // @ts-expect-error: display_group is required
    void admin.categories.products.list({ category_no: 44 });
    void admin.categories.products.list({ category_no: 44, display_group: 1 });
  });

  it('pages with all, yielding records, without offset or the keyset cursor', () => {
    expectTypeOf(admin.products.list.all({ category: 24 })).toEqualTypeOf<
      AsyncGenerator<AdminListItem<'/api/v2/admin/products'>>
    >();
    // @ts-expect-error: all owns the offset
    void admin.products.list.all({ offset: 100 });
    // @ts-expect-error: all owns the keyset cursor
    void admin.products.list.all({ since_product_no: 100 });
    // @ts-expect-error: only lists that page with offset have all
    void admin.categories.products.list.all;
  });

  it('takes per-call options, never throwOnError (a method always throws)', () => {
    void admin.products.get({ product_no: 7 }, { timeout: 5000, signal: AbortSignal.timeout(9000) });
    // @ts-expect-error: a method always throws
    void admin.products.get({ product_no: 7 }, { throwOnError: false });
  });
});
