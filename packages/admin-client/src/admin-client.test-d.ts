// Type-level behaviour of the admin client: paths, parameters, bodies and response data are typed
// from the spec (fields with defaults optional, `request` one object, closed when built with
// AdminWriteRequest), `paginate` takes only
// the pageable lists without their offset or cursor, and misuse does not compile.
import { describe, expectTypeOf, it } from 'vitest';
import {
  type AdminListItem,
  type AdminWriteRequest,
  type CallOptions,
  type components,
  createAdminClient,
  isMallApiError,
  type MallApiError,
} from './index.js';

const client = createAdminClient({ mallId: 'demomall', auth: { accessToken: 'token' } });

describe('admin client types', () => {
  it('types response data from the spec', async () => {
    const { data } = await client.GET('/api/v2/admin/categories/{category_no}', {
      params: { path: { category_no: 44 } },
    });
    expectTypeOf(data?.category.category_no).toEqualTypeOf<number | undefined>();
    expectTypeOf(data?.category.display_type).toEqualTypeOf<'A' | 'P' | 'M' | 'F' | undefined>();
    const { data: count } = await client.GET('/api/v2/admin/products/count');
    expectTypeOf(count?.count).toEqualTypeOf<number | undefined>();
  });

  it('types comma-list parameters as arrays and flags as T or F', () => {
    void client.GET('/api/v2/admin/products', {
      params: { query: { product_no: [120, 121], embed: ['variants'], display: 'T' } },
    });
    // @ts-expect-error: a flag is T or F
    void client.GET('/api/v2/admin/products', { params: { query: { display: 'Y' } } });
    // @ts-expect-error: embed takes the named lower resources only
    void client.GET('/api/v2/admin/products', { params: { query: { embed: ['reviews'] } } });
  });

  it('rejects unknown paths and missing path or required query parameters', () => {
    // @ts-expect-error: no such path
    void client.GET('/api/v2/admin/category');
    // @ts-expect-error: the path parameter category_no is required
    void client.GET('/api/v2/admin/categories/{category_no}', { params: {} });
    void client.GET('/api/v2/admin/categories/{category_no}/products', {
      // @ts-expect-error: display_group is required
      params: { path: { category_no: 44 }, query: {} },
    });
  });

  it('takes a write body as { shop_no?, request } with one closed object, defaults optional', () => {
    void client.POST('/api/v2/admin/products', {
      body: { request: { product_name: 'Linen Scarf', supply_price: '12000.00' } },
    });
    void client.POST('/api/v2/admin/products', {
      // @ts-expect-error: supply_price is required
      body: { request: { product_name: 'Linen Scarf' } },
    });
    void client.POST('/api/v2/admin/categories', {
      // @ts-expect-error: one object per call, not an array
      body: { request: [{ category_name: 'A' }] },
    });
    void client.PUT('/api/v2/admin/categories/{category_no}/products', {
      params: { path: { category_no: 44 } },
      // @ts-expect-error: display_group is 1, 2 or 3
      body: { request: { display_group: 4, product_no: 120 } },
    });
  });

  it('names the request object of a write with AdminWriteRequest, which is closed', () => {
    // openapi-fetch infers `init` generically, so an inline body escapes excess-property checks;
    // a request object typed with AdminWriteRequest does not.
    const scarves: AdminWriteRequest<'/api/v2/admin/categories', 'post'> = { category_name: 'Scarves' };
    void client.POST('/api/v2/admin/categories', { body: { request: scarves } });
    const misspelt: AdminWriteRequest<'/api/v2/admin/categories', 'post'> = {
      category_name: 'A',
      // @ts-expect-error: the request object is closed
      colour: 'x',
    };
    void misspelt;
    expectTypeOf<AdminWriteRequest<'/api/v2/admin/categories', 'post'>>().toEqualTypeOf<
      components['schemas']['CreateCategoryRequest']['request']
    >();
    expectTypeOf<AdminWriteRequest<'/api/v2/admin/products/{product_no}', 'put'>['price']>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<AdminWriteRequest<'/api/v2/admin/mains', 'post'>>().toBeNever();
  });

  it('types paginate items by endpoint and takes only the pageable lists', async () => {
    expectTypeOf<AdminListItem<'/api/v2/admin/products'>>().toEqualTypeOf<components['schemas']['Product']>();
    const iterate = async () => {
      for await (const category of client.paginate('/api/v2/admin/categories', { category_depth: 1 })) {
        expectTypeOf(category.category_no).toEqualTypeOf<number>();
      }
      for await (const bundle of client.paginate('/api/v2/admin/bundleproducts', { display: 'T' })) {
        expectTypeOf(bundle.product_no).toEqualTypeOf<number>();
      }
    };
    expectTypeOf(iterate).returns.resolves.toBeVoid();
    // @ts-expect-error: the main display groups are not paged
    void client.paginate('/api/v2/admin/mains', {});
    // @ts-expect-error: paginate sets offset itself
    void client.paginate('/api/v2/admin/products', { offset: 100 });
    // @ts-expect-error: paginate sets since_product_no itself
    void client.paginate('/api/v2/admin/products', { since_product_no: 5000 });
  });

  it('lets a POST opt in to retries, and types the narrowed result of a throwing call', async () => {
    const { data } = await client.POST('/api/v2/admin/categories', {
      body: { request: { category_name: 'Scarves' } },
      retryPost: true,
      throwOnError: true,
      timeout: 10_000,
    });
    expectTypeOf(data.category.category_no).toEqualTypeOf<number>();
    // @ts-expect-error: retryPost is a flag
    void client.POST('/api/v2/admin/categories', { body: { request: { category_name: 'x' } }, retryPost: 1 });
    expectTypeOf<CallOptions['maxRetries']>().toEqualTypeOf<number | undefined>();
  });

  it('types a throwing client and its errors', async () => {
    const strict = createAdminClient({ mallId: 'demomall', auth: { accessToken: 't' }, throwOnError: true });
    const { data } = await strict.GET('/api/v2/admin/categories/{category_no}', {
      params: { path: { category_no: 44 } },
    });
    expectTypeOf(data.category.category_no).toEqualTypeOf<number>();
    const error: unknown = undefined;
    if (isMallApiError(error, 'validation')) {
      expectTypeOf(error).toEqualTypeOf<MallApiError<'validation'>>();
      expectTypeOf(error.moreInfo).toEqualTypeOf<Readonly<Record<string, unknown>>>();
    }
  });
});
