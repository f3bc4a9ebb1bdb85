// `/__metrics` scraped as Prometheus would and read by a parser of its text format: the counts
// follow the traffic, and only the control API's callers may read it.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedMock, startMock } from '../qa/index.js';

const controlToken = 'metrics-test-token';
let mock: StartedMock;
const mall = 'metrics-mall';

beforeAll(async () => {
  mock = await startMock({ apis: ['admin'], controlToken });
});
afterAll(() => mock.close());

/** One scrape, parsed. */
async function scrape() {
  const response = await fetch(`${mock.urls.admin}/__metrics`, {
    headers: { 'x-mock-control-token': controlToken },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const families = parsePrometheusTextFormat(text);
  /** The family named `name`. */
  const family = (name: string) => families.find((candidate) => candidate.name === name);
  /** The value of the sample of `name` whose labels include `labels` (0 when there is none). */
  const value = (name: string, labels: Record<string, string> = {}) => {
    const sample = family(name)?.metrics.find((metric) =>
      Object.entries(labels).every(([key, wanted]) => metric.labels?.[key] === wanted),
    );
    return Number(sample?.value ?? 0);
  };
  /**
   * The observations of a histogram series, read from its `_count` line (the parser keeps only
   * unlabelled histograms).
   */
  const observations = (name: string, labels: Record<string, string>) => {
    const line = text
      .split('\n')
      .find(
        (candidate) =>
          candidate.startsWith(`${name}_count{`) &&
          Object.entries(labels).every(([key, wanted]) => candidate.includes(`${key}="${wanted}"`)),
      );
    return Number(line?.split(' ').at(-1) ?? 0);
  };
  return { family, value, observations };
}

const listCategories = async (token: string) =>
  (
    await fetch(`${mock.mallUrl('admin', mall)}/api/v2/admin/categories`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).status;

describe('/__metrics', () => {
  it('counts requests by API, operation id and status, and their latency', async () => {
    const { access_token: token } = await mock.token(mall);
    const before = await scrape();
    const ok = { api: 'admin', operation: 'listCategories', status: '200' };
    expect(await listCategories(token)).toBe(200);
    expect(await listCategories(token)).toBe(200);
    expect(await listCategories('not-a-token')).toBe(401);
    const after = await scrape();
    expect(after.value('mall_api_requests_total', ok) - before.value('mall_api_requests_total', ok)).toBe(2);
    expect(
      after.value('mall_api_requests_total', { ...ok, status: '401' }) -
        before.value('mall_api_requests_total', { ...ok, status: '401' }),
    ).toBe(1);
    expect(after.family('mall_api_request_duration_seconds')?.type).toBe('HISTOGRAM');
    const latency = { api: 'admin', operation: 'listCategories' };
    expect(
      after.observations('mall_api_request_duration_seconds', latency) -
        before.observations('mall_api_request_duration_seconds', latency),
    ).toBe(3);
  });

  it('labels a path that addresses no operation `none`, never with the path', async () => {
    await fetch(`${mock.urls.admin}/api/v2/admin/unicorns/12345`);
    const { family } = await scrape();
    const operations = new Set(
      family('mall_api_requests_total')?.metrics.map((metric) => metric.labels?.operation),
    );
    expect(operations.has('none')).toBe(true);
    expect([...operations].some((operation) => operation?.includes('/'))).toBe(false);
  });

  it('reports the malls in use and the journal’s bytes, which grow with traffic', async () => {
    const before = await scrape();
    const { access_token: token } = await mock.token(`${mall}-2`);
    await fetch(`${mock.mallUrl('admin', `${mall}-2`)}/api/v2/admin/categories`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const after = await scrape();
    expect(after.value('mall_api_malls_in_use')).toBe(before.value('mall_api_malls_in_use') + 1);
    expect(after.value('mall_api_journal_bytes')).toBeGreaterThan(before.value('mall_api_journal_bytes'));
    expect(after.family('mall_api_store_unavailable_total')?.type).toBe('COUNTER');
    expect(after.family('process_cpu_user_seconds_total')).toBeDefined();
  });

  it('reports the records the sandbox malls hold, by table, which a create adds to', async () => {
    const { access_token: token } = await mock.token(`${mall}-3`);
    const categories = { table: 'category' };
    // The mall's first call starts it from its seed; its create then adds one category.
    await fetch(`${mock.mallUrl('admin', `${mall}-3`)}/api/v2/admin/categories`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const before = await scrape();
    const created = await fetch(`${mock.mallUrl('admin', `${mall}-3`)}/api/v2/admin/categories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ shop_no: 1, request: { category_name: 'Counted' } }),
    });
    expect(created.status).toBe(201);
    const after = await scrape();
    expect(before.value('mall_api_sandbox_records', categories)).toBeGreaterThan(0);
    expect(after.value('mall_api_sandbox_records', categories)).toBe(
      before.value('mall_api_sandbox_records', categories) + 1,
    );
  });

  it('is neither journaled nor counted itself', async () => {
    const before = await mock.control.count(mall);
    const first = await scrape();
    const second = await scrape();
    expect(await mock.control.count(mall)).toBe(before);
    expect(second.value('mall_api_requests_total', { operation: 'none', status: '200' })).toBe(
      first.value('mall_api_requests_total', { operation: 'none', status: '200' }),
    );
  });

  it('answers only the control API’s callers: 401 without the control token', async () => {
    const response = await fetch(`${mock.urls.admin}/__metrics`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /control token/,
    );
  });
});
