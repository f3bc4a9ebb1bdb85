// The admin client against the admin mock's own fault injection (its control API): injected 503s
// are retried and the journal shows each attempt, a POST is sent once, a dropped connection is
// retried, Retry-After is waited out, and a hanging answer ends in a timeout error.
import { type StartedMock, startMock } from '@mall-api/mock-server/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAdminClient, isMallApiError } from './index.js';

const mall = 'faultmall';
let mock: StartedMock;
let accessToken = '';
beforeAll(async () => {
  mock = await startMock({ apis: ['admin'] });
  accessToken = (await mock.token(mall)).access_token;
});
afterAll(async () => {
  await mock.close();
});
beforeEach(async () => {
  await mock.control.clearFaults(mall);
  await mock.control.clearJournal(mall);
});

const client = (options: { timeout?: number; maxRetries?: number } = {}) =>
  createAdminClient({
    mallId: mall,
    baseUrl: mock.mallUrl('admin', mall),
    auth: { accessToken },
    retryBackoff: { initialMs: 5, maxMs: 20 },
    ...options,
  });

describe('against the mock’s fault injection', () => {
  it('503 twice, then the answer: three requests and the data', async () => {
    await mock.control.addFault(mall, {
      match: { operationId: 'listCategories' },
      times: 2,
      action: { kind: 'status', status: 503 },
    });
    const { data, error } = await client().GET('/api/v2/admin/categories', {
      params: { query: { limit: 5 } },
    });
    expect(error).toBeUndefined();
    expect(data?.categories.length).toBeGreaterThan(0);
    expect(await mock.control.count(mall, { operationId: 'listCategories' })).toBe(3);
  });

  it('a POST answered 503 is sent once and its error comes back', async () => {
    await mock.control.addFault(mall, {
      match: { operationId: 'createCategory' },
      times: 1,
      action: { kind: 'status', status: 503 },
    });
    const { error, response } = await client().POST('/api/v2/admin/categories', {
      body: { shop_no: 1, request: { category_name: 'Scarves' } },
    });
    expect(response.status).toBe(503);
    expect(error).toMatchObject({ error: { code: 'service_unavailable' } });
    expect(await mock.control.count(mall, { operationId: 'createCategory' })).toBe(1);
  });

  it('waits out the Retry-After of an injected 503', async () => {
    await mock.control.addFault(mall, {
      match: { operationId: 'listCategories' },
      times: 1,
      action: { kind: 'status', status: 503, retryAfterSeconds: 1 },
    });
    const started = Date.now();
    const { data } = await client().GET('/api/v2/admin/categories');
    expect(data?.categories).toBeDefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('retries a dropped connection', async () => {
    await mock.control.addFault(mall, {
      match: { operationId: 'listCategories' },
      times: 1,
      action: { kind: 'drop' },
    });
    const { data } = await client().GET('/api/v2/admin/categories');
    expect(data?.categories).toBeDefined();
    expect(await mock.control.faults(mall)).toEqual([]);
  });

  it('ends a call to a hanging answer in a timeout error after `timeout` per attempt', async () => {
    await mock.control.addFault(mall, {
      match: { operationId: 'listCategories' },
      action: { kind: 'hang' },
    });
    const started = Date.now();
    const error = await client({ timeout: 250, maxRetries: 1 })
      .GET('/api/v2/admin/categories')
      .catch((caught: unknown) => caught);
    expect(isMallApiError(error, 'timeout')).toBe(true);
    expect(error).toMatchObject({ operationId: 'listCategories', attempts: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });
});
