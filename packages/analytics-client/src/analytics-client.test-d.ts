// Type-level behaviour of the analytics client: paths, parameters and response data are typed
// from the spec, `paginate` and `fetchRange` yield the endpoint's records, the failure options and
// typed errors are typed, and misuse does not compile.
import type { LimitReport } from '@mall-api/rate-limit';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ClientEvent,
  createAnalyticsClient,
  isMallApiError,
  type MallApiError,
  type MallErrorKind,
} from './index.js';

const client = createAnalyticsClient({ auth: { accessToken: 'token' } });
const range = { mall_id: 'demomall', start_date: '2026-01-01', end_date: '2026-01-31' };

describe('analytics client types', () => {
  it('types response data from the spec and rejects misuse', async () => {
    const { data } = await client.GET('/visitors/view', { params: { query: range } });
    expectTypeOf(data?.view[0]?.visit_count).toEqualTypeOf<number | undefined>();
    // @ts-expect-error: no such path
    void client.GET('/visitors/views', { params: { query: range } });
    // @ts-expect-error: mall_id, start_date and end_date are required
    void client.GET('/visitors/view', { params: { query: { mall_id: 'demomall' } } });
  });

  it('types fetchRange items by endpoint', async () => {
    const days = await client.fetchRange('/visitors/view', range);
    expectTypeOf(days[0]?.visit_count).toEqualTypeOf<number | undefined>();
  });

  it('narrows the result of a throwing call, per call or per client', async () => {
    const { data, error } = await client.GET('/visitors/view', {
      params: { query: range },
      throwOnError: true,
    });
    expectTypeOf(data.view).toBeArray();
    expectTypeOf(error).toEqualTypeOf<undefined>();
    const strict = createAnalyticsClient({ auth: { accessToken: 't' }, throwOnError: true, timeout: 5_000 });
    expectTypeOf((await strict.GET('/visitors/view', { params: { query: range } })).data.view).toBeArray();
    const lenient = await client.GET('/visitors/view', { params: { query: range }, maxRetries: 0 });
    expectTypeOf(lenient.data).toBeNullable();
  });

  it('types the options, events, rate-limit state and errors', () => {
    createAnalyticsClient({
      auth: { accessToken: 't' },
      maxRetries: 4,
      retryBackoff: { initialMs: 100 },
      onEvent: (event) => {
        expectTypeOf(event).toEqualTypeOf<ClientEvent>();
        if (event.type === 'retry')
          expectTypeOf(event.reason).toEqualTypeOf<'rate_limited' | 'status' | 'connection' | 'timeout'>();
        if (event.type === 'token-refresh')
          expectTypeOf(event.reason).toEqualTypeOf<'unauthorized' | 'rotated'>();
      },
    });
    // @ts-expect-error: timeout is in milliseconds
    createAnalyticsClient({ auth: { accessToken: 't' }, timeout: '1m' });
    expectTypeOf(client.rateLimit()).toEqualTypeOf<LimitReport | undefined>();
    const error: unknown = undefined;
    if (isMallApiError(error, 'rate_limited', 'server')) {
      expectTypeOf(error).toEqualTypeOf<MallApiError<'rate_limited' | 'server'>>();
      expectTypeOf(error.status).toEqualTypeOf<number>();
    }
    expectTypeOf<MallApiError['kind']>().toEqualTypeOf<MallErrorKind>();
  });
});
