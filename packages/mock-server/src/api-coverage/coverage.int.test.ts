// An app-like script against a sandbox mall (several calls, some refused by a rule), then the
// coverage report of its mall, operation by operation, through the control API and its client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlError, type StartedMock, startMock } from '../qa/index.js';

let mock: StartedMock;
const mall = 'coverage-app';
const operationIds = [
  'listCategories',
  'countCategories',
  'createCategory',
  'countProducts',
  'createProduct',
];

beforeAll(async () => {
  mock = await startMock({ apis: ['admin'] });
});
afterAll(() => mock.close());

/** Calls the mall's admin API as the app would. */
const call = (path: string, init: { token?: string; method?: string; body?: unknown } = {}) =>
  fetch(`${mock.mallUrl('admin', mall)}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  }).then((response) => response.status);

/** The app's run: what each call was answered with. */
async function appRun(): Promise<number[]> {
  const { access_token: token } = await mock.token(mall);
  const { access_token: readOnly } = await mock.token(mall, ['mall.read_category']);
  return [
    await call('/api/v2/admin/categories', { token }),
    await call('/api/v2/admin/categories/count', { token }),
    await call('/api/v2/admin/categories', {
      token,
      method: 'POST',
      body: { shop_no: 1, request: { category_name: 'Coverage' } },
    }),
    // Refused: no credentials, a missing scope, a body against its schema, a range upside down and
    // tags longer together than the spec allows.
    await call('/api/v2/admin/categories'),
    await call('/api/v2/admin/categories', {
      token: readOnly,
      method: 'POST',
      body: { shop_no: 1, request: { category_name: 'Refused' } },
    }),
    await call('/api/v2/admin/categories', { token, method: 'POST', body: { shop_no: 1 } }),
    await call('/api/v2/admin/products/count?price_min=500&price_max=100', { token }),
    await call('/api/v2/admin/products', {
      token,
      method: 'POST',
      body: {
        shop_no: 1,
        request: { product_name: 'Tags', price: '1000', product_tag: ['a'.repeat(100), 'b'.repeat(100)] },
      },
    }),
  ];
}

describe('the coverage of an app’s run', () => {
  beforeAll(async () => {
    await mock.control.reset(mall);
    expect(await appRun()).toEqual([200, 200, 201, 401, 403, 422, 422, 422]);
  });

  it('names the rules that refused each call in the journal', async () => {
    const refused = (await mock.control.journal(mall)).filter((entry) => entry.status >= 400);
    expect(refused.map((entry) => [entry.operationId, entry.refusedBy])).toEqual([
      ['listCategories', ['credentials']],
      ['createCategory', ['scope']],
      ['createCategory', ['request-schema']],
      ['countProducts', ['x-not-less-than:price_max']],
      ['createProduct', expect.arrayContaining(['x-joined-max-length:request.product_tag'])],
    ]);
  });

  it('reports each operation with its calls, its answered responses and the rules that refused it', async () => {
    const report = await mock.control.coverage({ malls: [mall], api: 'admin', operationIds });
    const calls = Object.fromEntries(report.operations.items.map((item) => [item.operationId, item.calls]));
    expect(calls).toEqual({
      listCategories: 2,
      countCategories: 1,
      createCategory: 3,
      countProducts: 1,
      createProduct: 1,
    });
    const answered = (operationId: string) =>
      report.responses.items
        .filter((item) => item.operationId === operationId && item.answers > 0)
        .map((item) => item.status);
    expect(answered('listCategories')).toEqual(['200', '401']);
    expect(answered('countCategories')).toEqual(['200']);
    expect(answered('createCategory')).toEqual(['201', '403', '422']);
    expect(answered('countProducts')).toEqual(['422']);
    expect(answered('createProduct')).toEqual(['422']);
    const refusing = (operationId: string) =>
      report.rules.items
        .filter((item) => item.operationId === operationId && item.refusals > 0)
        .map((item) => item.rule);
    expect(refusing('listCategories')).toEqual(['credentials']);
    expect(refusing('countCategories')).toEqual([]);
    expect(refusing('createCategory')).toEqual(['scope', 'request-schema']);
    expect(refusing('countProducts')).toEqual(['x-not-less-than:price_max']);
    expect(refusing('createProduct')).toContain('x-joined-max-length:request.product_tag');
    expect(report.operations).toMatchObject({ documented: 5, exercised: 5, percent: 100 });
    expect(report.malls).toEqual([mall]);
  });

  it('fails a minimum the run did not reach, and passes one it did', async () => {
    const report = await mock.control.coverage({
      malls: [mall],
      api: 'admin',
      minimum: { operations: 50, responses: 90 },
    });
    expect(report.thresholds.map(({ measure, passed }) => [measure, passed])).toEqual([
      ['operations', false],
      ['responses', false],
    ]);
    expect(report.passed).toBe(false);
    const scoped = await mock.control.coverage({
      malls: [mall],
      api: 'admin',
      operationIds,
      minimum: { operations: 100 },
    });
    expect(scoped.passed).toBe(true);
  });

  it('counts only the requests inside a time range of the mall’s clock', async () => {
    const { now } = await mock.control.clock(mall);
    await mock.control.advanceClock(mall, 60_000);
    const { access_token: token } = await mock.token(mall);
    expect(await call('/api/v2/admin/categories/count', { token })).toBe(200);
    const later = await mock.control.coverage({
      malls: [mall],
      api: 'admin',
      operationIds,
      from: new Date(Date.parse(now) + 30_000).toISOString(),
    });
    expect(later.operations.items.filter((item) => item.calls > 0).map((item) => item.operationId)).toEqual([
      'countCategories',
    ]);
    const earlier = await mock.control.coverage({ malls: [mall], api: 'admin', operationIds, to: now });
    expect(earlier.requests).toBe(8); // the app run, not the later call
    // The token flow's calls count too (its operations are the admin API's).
    const all = await mock.control.coverage({
      malls: [mall],
      api: 'admin',
      from: new Date(Date.parse(now) + 30_000).toISOString(),
    });
    expect(all.operations.items.filter((item) => item.calls > 0).map((item) => item.operationId)).toEqual(
      expect.arrayContaining(['authorizeApp', 'issueAccessToken', 'countCategories']),
    );
  });

  it('adds up the journals of several malls', async () => {
    const other = `${mall}-2`;
    const { access_token: token } = await mock.token(other);
    await fetch(`${mock.mallUrl('admin', other)}/api/v2/admin/categories`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const both = await mock.control.coverage({
      malls: [mall, other],
      api: 'admin',
      operationIds: ['listCategories'],
    });
    expect(both.operations.items[0]?.calls).toBe(3);
  });

  it('answers Markdown and JUnit XML', async () => {
    const request = { malls: [mall], api: 'admin' as const, operationIds, minimum: { rules: 100 } };
    const markdown = await mock.control.coverageDocument(request, 'markdown');
    expect(markdown).toContain('| Operations | 5 | 5 | 100% |');
    expect(markdown).toContain('| ✓ | admin countProducts x-not-less-than:price_max | 1 |');
    const junit = await mock.control.coverageDocument(request, 'junit');
    expect(junit.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(junit).toMatch(/<testsuite name="coverage.thresholds" tests="1" failures="1" skipped="0">/);
  });
});

describe('a coverage request with a mistake', () => {
  /** The status and violation names of a refused coverage request. */
  const refusal = async (request: Parameters<StartedMock['control']['coverage']>[0]) => {
    const error = await mock.control.coverage(request).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ControlError);
    const { status, violations } = error as ControlError;
    return { status, names: violations.map((violation) => violation.name) };
  };

  it('names an operation id no API has', async () => {
    expect(await refusal({ malls: [mall], operationIds: ['listCategories', 'listUnicorns'] })).toEqual({
      status: 422,
      names: ['operationIds'],
    });
  });

  it('names an operation of another API than the one asked for', async () => {
    expect(await refusal({ malls: [mall], api: 'collection', operationIds: ['createCategory'] })).toEqual({
      status: 422,
      names: ['operationIds'],
    });
  });

  it('names a rule no API states', async () => {
    expect(await refusal({ malls: [mall], rules: ['scope', 'x-not-less-than:unicorns'] })).toEqual({
      status: 422,
      names: ['rules'],
    });
  });

  it('names a minimum outside 0 to 100', async () => {
    const { status, names } = await refusal({ malls: [mall], minimum: { operations: 150 } });
    expect(status).toBe(422);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/minimum.*operations/);
  });

  it('names a missing list of malls', async () => {
    const response = await fetch(`${mock.urls.admin}/__mock/coverage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { more_info: { violations: { name: string }[] } } };
    expect(body.error.more_info.violations.map((violation) => violation.name)).toEqual(['malls']);
  });
});
