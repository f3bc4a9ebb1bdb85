// Type-level behaviour of the collection client: paths, parameters and response data are typed
// from the spec, the failure options and typed errors are typed, and misuse does not compile.
import type { LimitReport } from '@mall-api/rate-limit';
import { describe, expectTypeOf, it } from 'vitest';
import { type ClientEvent, createCollectionClient, isMallApiError, type MallErrorKind } from './index.js';

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

  it('takes the per-call options and narrows the result when the call throws on errors', async () => {
    const plain = await client.GET('/api/shops', { timeout: 5_000, maxRetries: 1 });
    expectTypeOf(plain.data).toBeNullable();
    const thrown = await client.GET('/api/shops', { throwOnError: true });
    expectTypeOf(thrown.data.shops[0]?.shop_no).toEqualTypeOf<number | undefined>();
    expectTypeOf(thrown.error).toEqualTypeOf<undefined>();
    // @ts-expect-error: a timeout is a number of milliseconds
    void client.GET('/api/shops', { timeout: '5s' });
  });

  it('narrows every call of a client created with throwOnError, unless a call says otherwise', async () => {
    const strict = createCollectionClient({ clientId: 'id', clientSecret: 'secret', throwOnError: true });
    const { data } = await strict.GET('/api/shops');
    expectTypeOf(data.shops).toBeArray();
    const lenient = await strict.GET('/api/shops', { throwOnError: false });
    expectTypeOf(lenient.data).toBeNullable();
  });

  it('types the client options, the events and the rate-limit state', () => {
    createCollectionClient({
      clientId: 'id',
      clientSecret: 'secret',
      maxRetries: 3,
      timeout: 10_000,
      retryBackoff: { initialMs: 200, maxMs: 5_000 },
      onEvent: (event) => expectTypeOf(event).toEqualTypeOf<ClientEvent>(),
    });
    // @ts-expect-error: maxRetries is a count
    createCollectionClient({ clientId: 'id', clientSecret: 'secret', maxRetries: 'twice' });
    expectTypeOf(client.rateLimit()).toEqualTypeOf<LimitReport | undefined>();
  });

  it('narrows errors by kind with isMallApiError', () => {
    const error: unknown = new Error('x');
    if (isMallApiError(error, 'timeout', 'connection')) {
      expectTypeOf(error.status).toEqualTypeOf<undefined>();
      expectTypeOf(error.kind).toEqualTypeOf<'timeout' | 'connection'>();
    }
    if (isMallApiError(error, 'not_found')) expectTypeOf(error.status).toEqualTypeOf<number>();
    if (isMallApiError(error)) {
      expectTypeOf(error.kind).toEqualTypeOf<MallErrorKind>();
      expectTypeOf(error.operationId).toEqualTypeOf<string | undefined>();
      expectTypeOf(error.queueWaitMs).toEqualTypeOf<number>();
    }
  });
});
