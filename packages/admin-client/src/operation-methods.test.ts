// The admin client's generated methods against the real mock (the stateful sandbox): a list with
// flat filters, a create whose fields the method wraps as `{ shop_no, request }`, a read and an
// update by path parameter, `all` paging a list, a count under a nested namespace, and a failure
// thrown as the client's typed error.
import { type StartedMock, startMock } from '@mall-api/mock-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, createAdminClient, isMallApiError } from './index.js';

const mall = 'methodsmall';
let mock: StartedMock;
let admin: AdminClient;
beforeAll(async () => {
  mock = await startMock({ apis: ['admin'] });
  const { access_token } = await mock.token(mall);
  admin = createAdminClient({
    mallId: mall,
    baseUrl: mock.mallUrl('admin', mall),
    auth: { accessToken: access_token },
  });
});
afterAll(async () => {
  await mock.close();
});

describe('admin operation methods', () => {
  it('lists with flat filters and resolves to the body', async () => {
    const { products } = await admin.products.list({ limit: 3, display: 'T' });
    expect(products.length).toBeGreaterThan(0);
    expect(products.length).toBeLessThanOrEqual(3);
    expect(products.every((product) => product.display === 'T')).toBe(true);
  });

  it('creates from flat fields, reads and updates by the path parameter', async () => {
    const { category } = await admin.categories.create({ category_name: 'Methods shelf' });
    expect(category.category_name).toBe('Methods shelf');
    const read = await admin.categories.get({ category_no: category.category_no });
    expect(read.category.category_name).toBe('Methods shelf');
    const updated = await admin.categories.update({
      category_no: category.category_no,
      shop_no: 1,
      category_name: 'Methods shelf 2',
    });
    expect(updated.category.category_name).toBe('Methods shelf 2');
    const { count } = await admin.categories.count({ category_name: 'Methods shelf 2' });
    expect(count).toBe(1);
  });

  it('pages a list with all, as paginate does', async () => {
    const seen: number[] = [];
    for await (const category of admin.categories.list.all({ limit: 2 })) seen.push(category.category_no);
    const { count } = await admin.categories.count();
    expect(seen).toHaveLength(count);
    expect(new Set(seen).size).toBe(count);
  });

  it('reaches a nested namespace with its path parameter', async () => {
    const { mains } = await admin.mains.list();
    const group = mains[0]?.display_group ?? 0;
    const { count } = await admin.mains.products.count({ display_group: group });
    const { products } = await admin.mains.products.list({ display_group: group });
    expect(products).toHaveLength(count);
  });

  it('throws MallApiError with the envelope on failure', async () => {
    const failure = await admin.products.get({ product_no: 999_999_999 }).catch((error: unknown) => error);
    expect(isMallApiError(failure, 'not_found')).toBe(true);
    expect(failure).toMatchObject({ status: 404, operationId: 'getProduct', code: 'not_found' });
  });
});
