// Type-level behaviour of the analytics client's generated methods: one namespace per path
// segment, flat query input with the mall and period required, results typed as the success body,
// `all` only on the reports that page with offset, and misuse not compiling.
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createAnalyticsClient } from './index.js';

const analytics = createAnalyticsClient({ auth: { accessToken: 'token' } });
const range = { mall_id: 'demomall', start_date: '2026-10-01', end_date: '2026-10-31' };

describe('analytics operation method types', () => {
  it('takes the query flat and resolves to the body', async () => {
    const { view } = await analytics.visitors.view.list({ ...range, device_type: 'mobile' });
    expectTypeOf(view).toEqualTypeOf<components['schemas']['VisitorsViewRecord'][]>();
    const { sales } = await analytics.members.sales.list(range);
    expectTypeOf(sales).not.toBeAny();
  });

  it('requires the mall and the period', () => {
    // @ts-expect-error: start_date and end_date are required
    void analytics.visitors.view.list({ mall_id: 'demomall' });
    // @ts-expect-error: no such device type
    void analytics.visitors.view.list({ ...range, device_type: 'tv' });
  });

  it('pages with all only where the report pages with offset', () => {
    expectTypeOf(analytics.visitors.view.list.all(range)).toEqualTypeOf<
      AsyncGenerator<components['schemas']['VisitorsViewRecord']>
    >();
    // @ts-expect-error: this report does not page with offset
    void analytics.members.sales.list.all;
  });
});
