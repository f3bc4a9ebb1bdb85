// The analytics client: bearer auth, paging through a result, splitting a long date range into
// requests and merging them in order, failures retried and typed for fetchRange too (against a
// local fault server), and the token-bucket scheduler against the real mock in simulated time (a
// burst of 10, then one call per two seconds, and never a 429).

import { readFileSync } from 'node:fs';
import {
  createOAuthAuthority,
  demoOAuthApp,
  issueDemoTokens,
  platformOAuthSettings,
  type RunningMock,
  startMockServer,
} from '@mall-api/mock-server';
import { createServerLimiter, manualClock } from '@mall-api/rate-limit';
import { startFaultServer } from '@mall-api/test-support/fault-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyticsClient, isMallApiError } from './index.js';

/** The OAuth settings of the shipped admin and analytics specs, for the authorities built here. */
const oauth = await platformOAuthSettings();

function recordingFetch(answer: (url: URL) => unknown) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request);
    return new Response(JSON.stringify(answer(new URL(request.url))), {
      headers: { 'content-type': 'application/json' },
    });
  };
  return { requests, fetch: fetch as typeof globalThis.fetch };
}

const range = { mall_id: 'demomall', start_date: '2026-01-01', end_date: '2026-01-31' };

describe('requests', () => {
  it('sends the bearer token and the query', async () => {
    const { requests, fetch } = recordingFetch(() => ({ view: [] }));
    const client = createAnalyticsClient({
      auth: { accessToken: 'tok-123' },
      baseUrl: 'https://analytics.test',
      fetch,
      rateLimit: false,
    });
    await client.GET('/visitors/view', { params: { query: { ...range, device_type: 'mobile' } } });
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer tok-123');
    expect(requests[0]?.url).toBe(
      'https://analytics.test/visitors/view?mall_id=demomall&start_date=2026-01-01&end_date=2026-01-31&device_type=mobile',
    );
  });

  it('sends a User-Agent naming the package and the version in its package.json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const { requests, fetch } = recordingFetch(() => ({ view: [] }));
    const client = createAnalyticsClient({ auth: { accessToken: 't' }, baseUrl: 'https://a.test', fetch });
    await client.GET('/visitors/view', { params: { query: range } });
    expect(requests[0]?.headers.get('user-agent')).toBe(`mall-api-analytics-client/${version}`);
  });

  it('refuses plain HTTP to this HTTPS-only API, except to a loopback address or with allowInsecureHttp', () => {
    const auth = { accessToken: 't' };
    expect(() => createAnalyticsClient({ auth, baseUrl: 'http://analytics.example' })).toThrow(
      /accepts HTTPS only/,
    );
    for (const baseUrl of [
      'http://127.0.0.1:4012',
      'http://localhost:4012',
      'http://[::1]:4012',
      'https://a.test',
    ])
      expect(() => createAnalyticsClient({ auth, baseUrl })).not.toThrow();
    expect(() =>
      createAnalyticsClient({ auth, baseUrl: 'http://analytics.example', allowInsecureHttp: true }),
    ).not.toThrow();
  });
});

describe('paginate', () => {
  it('pages with limit 1000 until a short page', async () => {
    const { requests, fetch } = recordingFetch((url) => {
      const offset = Number(url.searchParams.get('offset'));
      const size = offset < 2000 ? 1000 : 17;
      return { view: Array.from({ length: size }, (_, i) => ({ url: `/p/${offset + i}`, count: 1 })) };
    });
    const client = createAnalyticsClient({ auth: { accessToken: 't' }, fetch, rateLimit: false });
    const urls: string[] = [];
    for await (const record of client.paginate('/pages/view', range)) urls.push(record.url);
    expect(urls).toHaveLength(2017);
    expect(urls.at(-1)).toBe('/p/2016');
    expect(requests.map((r) => new URL(r.url).searchParams.get('offset'))).toEqual(['0', '1000', '2000']);
    expect(new URL(requests[0]?.url ?? '').searchParams.get('limit')).toBe('1000');
  });
});

describe('fetchRange', () => {
  it('splits a long range into monthly requests, never across 2023-01-01, and merges them in order', async () => {
    const { requests, fetch } = recordingFetch((url) => ({
      dailyactive: [{ date: `${url.searchParams.get('start_date')}T00:00:00+09:00`, user_count: 1 }],
    }));
    const client = createAnalyticsClient({ auth: { accessToken: 't' }, fetch, rateLimit: false });
    const rows = await client.fetchRange('/visitors/dailyactive', {
      ...range,
      start_date: '2022-12-15',
      end_date: '2023-03-10',
    });
    const asked = requests.map((r) => {
      const q = new URL(r.url).searchParams;
      return `${q.get('start_date')}..${q.get('end_date')}`;
    });
    expect(asked).toEqual([
      '2022-12-15..2022-12-31',
      '2023-01-01..2023-01-31',
      '2023-02-01..2023-03-03',
      '2023-03-04..2023-03-10',
    ]);
    expect(rows.map((row) => row.date.slice(0, 10))).toEqual([
      '2022-12-15',
      '2023-01-01',
      '2023-02-01',
      '2023-03-04',
    ]);
  });

  it('fetches endpoints without offset once per sub-range', async () => {
    const { requests, fetch } = recordingFetch(() => ({
      pervisitors: [{ date: '2026-01-01T00:00:00+09:00' }],
    }));
    const client = createAnalyticsClient({ auth: { accessToken: 't' }, fetch, rateLimit: false });
    await client.fetchRange('/sales/pervisitors', { ...range, end_date: '2026-02-15' }, { maxDays: 31 });
    expect(requests).toHaveLength(2);
    expect(requests.every((r) => !new URL(r.url).searchParams.has('offset'))).toBe(true);
  });
});

describe('failures', () => {
  const view = { view: [{ date: '2026-01-01', visit_count: 3, first_visit_count: 1, re_visit_count: 2 }] };

  it('fetchRange retries a 503 and a dropped connection, then throws a typed error naming the operation', async () => {
    const server = await startFaultServer((index) =>
      index === 0
        ? { status: 503 }
        : index === 1
          ? 'drop'
          : index === 2
            ? { status: 200, body: view }
            : { status: 403, body: { error: { code: 'forbidden', message: 'scope', more_info: {} } } },
    );
    try {
      const client = createAnalyticsClient({
        auth: { accessToken: 't' },
        baseUrl: server.url,
        retryBackoff: { initialMs: 5 },
      });
      expect(await client.fetchRange('/visitors/view', range)).toEqual(view.view);
      expect(server.requests).toHaveLength(3);
      const error = await client.fetchRange('/visitors/view', range).catch((caught: unknown) => caught);
      expect(isMallApiError(error, 'forbidden')).toBe(true);
      expect(error).toMatchObject({ status: 403, operationId: 'listVisitorViews', path: '/visitors/view' });
    } finally {
      await server.close();
    }
  });
});

describe('against the real mock', () => {
  const clock = manualClock(Date.UTC(2026, 10, 1));
  const authority = createOAuthAuthority({ apps: [demoOAuthApp(oauth)], settings: oauth });
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMockServer({
      api: 'analytics',
      port: 0,
      authority,
      limiter: createServerLimiter({ api: 'analytics', clock: clock.now }),
    });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('never receives a 429: after the burst of 10 it waits two seconds per call', async () => {
    const token = (await issueDemoTokens(authority, ['mall.read_analytics'])).access_token;
    const client = createAnalyticsClient({
      auth: { accessToken: token },
      baseUrl: mock.url,
      rateLimit: { clock: clock.now, sleep: clock.sleep },
    });
    const started = clock.now();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { response } = await clock.run(client.GET('/visitors/unique', { params: { query: range } }));
      statuses.push(response.status);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(clock.now() - started).toBe(10 * 2000);
  });
});
