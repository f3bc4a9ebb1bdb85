// The analytics client's generated methods against the real mock (the sandbox's statistics of the
// caller's own mall): a report with flat query fields resolving to the body, `all` reading a
// report page by page to the same records, and another mall's statistics refused as the client's
// typed error.
import { type StartedMock, startMock } from '@mall-api/mock-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsClient, createAnalyticsClient, isMallApiError } from './index.js';

const mall = 'statsmall';
const range = { mall_id: mall, start_date: '2026-10-01', end_date: '2026-10-20' };
let mock: StartedMock;
let analytics: AnalyticsClient;
beforeAll(async () => {
  mock = await startMock({ apis: ['admin', 'analytics'] });
  const { access_token } = await mock.token(mall);
  analytics = createAnalyticsClient({
    baseUrl: mock.mallUrl('analytics', mall),
    auth: { accessToken: access_token },
    rateLimit: false,
  });
});
afterAll(async () => {
  await mock.close();
});

describe('analytics operation methods', () => {
  it('reads a daily report with flat query fields', async () => {
    const { view } = await analytics.visitors.view.list(range);
    expect(view).toHaveLength(20);
    expect(view.every((day) => typeof day.visit_count === 'number')).toBe(true);
  });

  it('pages a report with all to the records one call reads', async () => {
    const quarter = { ...range, start_date: '2026-08-01', end_date: '2026-10-31' };
    const { dailyactive } = await analytics.visitors.dailyactive.list({ ...quarter, limit: 1000 });
    const paged = [];
    for await (const day of analytics.visitors.dailyactive.list.all({ ...quarter, limit: 50 }))
      paged.push(day);
    expect(dailyactive.length).toBeGreaterThan(50);
    expect(paged).toEqual(dailyactive);
  });

  it('throws MallApiError for another mall’s statistics', async () => {
    const failure = await analytics.visitors.view
      .list({ ...range, mall_id: 'someoneelse' })
      .catch((error: unknown) => error);
    expect(isMallApiError(failure)).toBe(true);
    expect((failure as { status: number }).status).toBeGreaterThanOrEqual(400);
  });
});
