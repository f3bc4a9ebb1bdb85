// The admin client against the mock's lost-answer fault (the create commits, then its answer is
// lost): by default a POST is never resent, so a create whose answer was dropped or answered 504
// leaves one record and `duplicates: 0`; a PUT (idempotent) is resent and duplicates nothing; a
// call that opts in with `retryPost` does resend the create, and the duplicates check catches it.
import { type StartedMock, startMock } from '@mall-api/mock-server/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAdminClient, isMallApiError } from './index.js';

const mall = 'lostanswermall';
let mock: StartedMock;
let accessToken = '';
beforeAll(async () => {
  mock = await startMock({ apis: ['admin'] });
  accessToken = (await mock.token(mall)).access_token;
});
afterAll(() => mock.close());
beforeEach(async () => {
  await mock.control.clearFaults(mall);
  await mock.control.clearJournal(mall);
});

const client = () =>
  createAdminClient({
    mallId: mall,
    baseUrl: mock.mallUrl('admin', mall),
    auth: { accessToken },
    retryBackoff: { initialMs: 5, maxMs: 20 },
  });
const scarves = { shop_no: 1, request: { category_name: 'Scarves' } };
const loseNext = (operationId: string, by: 'drop' | 'gateway-timeout') =>
  mock.control.addFault(mall, { match: { operationId }, action: { kind: 'lost-answer', by }, times: 1 });

describe('a create whose answer is lost', () => {
  it('is sent once when the connection drops: the error comes back and nothing is duplicated', async () => {
    await loseNext('createCategory', 'drop');
    const outcome = await client()
      .POST('/api/v2/admin/categories', { body: scarves })
      .catch((caught: unknown) => caught);
    expect(isMallApiError(outcome, 'connection')).toBe(true);
    expect(await mock.control.count(mall, { operationId: 'createCategory' })).toBe(1);
    await mock.control.verify(mall, { duplicates: 0 });
  });

  it('is sent once when a 504 comes instead: the 504 comes back and nothing is duplicated', async () => {
    await loseNext('createCategory', 'gateway-timeout');
    const { response } = await client().POST('/api/v2/admin/categories', { body: scarves });
    expect(response.status).toBe(504);
    expect(await mock.control.count(mall, { operationId: 'createCategory' })).toBe(1);
    await mock.control.verify(mall, { duplicates: 0 });
  });

  it('is sent again when the call opts in with retryPost, and the duplicates check catches it', async () => {
    await loseNext('createCategory', 'gateway-timeout');
    const { data } = await client().POST('/api/v2/admin/categories', { body: scarves, retryPost: true });
    expect(data?.category.category_name).toBe('Scarves');
    await expect(mock.control.verify(mall, { duplicates: 0 })).rejects.toThrow(/found 1/);
  });
});

it('resends an update whose answer was lost, which duplicates nothing', async () => {
  const created = await client().POST('/api/v2/admin/categories', { body: scarves });
  const categoryNo = created.data?.category.category_no as number;
  await loseNext('updateCategory', 'gateway-timeout');
  const { data } = await client().PUT('/api/v2/admin/categories/{category_no}', {
    params: { path: { category_no: categoryNo } },
    body: { shop_no: 1, request: { category_name: 'Winter scarves' } },
  });
  expect(data?.category.category_name).toBe('Winter scarves');
  expect(await mock.control.count(mall, { operationId: 'updateCategory' })).toBe(2);
  await mock.control.verify(mall, { duplicates: 0 });
});
