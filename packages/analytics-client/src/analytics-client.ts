// `createAnalyticsClient`: one method per operation of the analytics API (Beta; generated from the
// spec, e.g. `visitors.unique.list`) over openapi-fetch on its generated `paths`,
// with bearer auth (a token manager or a fixed token), the token-bucket scheduler kept in step
// with `X-RateLimit-Remaining`, `paginate` over the pageable endpoints, and `fetchRange`, which
// splits a long date range into requests the API accepts and merges the records in order; retries,
// timeouts and typed errors come with it.
import {
  type ApiClient,
  assembleApiClient,
  attachOperationMethods,
  type BearerAuth,
  bearerAuthMiddleware,
  type ClientRuntimeOptions,
  type DateRange,
  getList,
  type LooseGet,
  type LoosePaginate,
  type OffsetPagingOptions,
  paginateList,
  splitDateRange,
} from '@mall-api/client-kit';
import { analyticsLimitModel, type RateLimitMiddlewareCommonOptions } from '@mall-api/rate-limit';
import type { paths } from '@mall-api/specs/types/analytics';
import { listEndpoints } from './generated/list-keys.js';
import { type AnalyticsMethods, analyticsMethods } from './generated/methods.js';
import { httpsOnly, operationIds, userAgent } from './generated/operation-ids.js';

/** Production base address of the analytics API. */
export const analyticsBaseUrl = 'https://ca-api.cafe24data.com';

/** Largest page the API serves (`limit` maximum). */
export const analyticsMaxLimit = 1000;

/**
 * Where the platform's data source changes (statistics before 2023 come from the older access
 * statistics): `fetchRange` never lets one request span it.
 */
export const analyticsSourceBoundary = '2023-01-01';

/** Options of {@link createAnalyticsClient}; see {@link ClientRuntimeOptions} for retries, timeouts, errors and events. */
export interface AnalyticsClientOptions<ClientThrows extends boolean = boolean>
  extends ClientRuntimeOptions<ClientThrows> {
  /** A token manager from `@mall-api/auth` (recommended), or `{ accessToken }`. */
  auth: BearerAuth;
  /** Defaults to {@link analyticsBaseUrl}; the local mock is `http://127.0.0.1:4012`. */
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  /**
   * Client-side scheduling under the token bucket (burst 10, one token every two seconds; on by
   * default). Pass a shared `RedisStore` as `store` and the mall as `key` when several workers
   * call for one mall; `false` turns scheduling off.
   */
  rateLimit?: RateLimitMiddlewareCommonOptions | false;
}

type Paths = keyof typeof listEndpoints;
type PageablePath = { [P in Paths]: (typeof listEndpoints)[P]['pageable'] extends true ? P : never }[Paths];
type Query<P extends Paths> = NonNullable<paths[P]['get']['parameters']['query']>;
type Body<P extends Paths> = paths[P]['get']['responses'][200]['content']['application/json'];
/** The records of a list body under `K`; a body that may come in several shapes gives the records of each. */
type Records<B, K extends PropertyKey> = B extends { [Key in K]: readonly (infer T)[] } ? T : never;
type Item<P extends Paths> = Records<Body<P>, (typeof listEndpoints)[P]['key']>;

/**
 * A typed client of the analytics API: one method per operation
 * (`analytics.visitors.unique.list({ mall_id, start_date, end_date })`, which throws `MallApiError`
 * on failure and resolves to the body), and openapi-fetch's `GET` underneath, whose calls throw
 * only when created with `throwOnError: true` (`ClientThrows`).
 */
export interface AnalyticsClient<ClientThrows extends boolean = false>
  extends ApiClient<paths, ClientThrows>,
    AnalyticsMethods {
  /** Iterates every record of a pageable endpoint (`limit` 1000 unless given; no offset cap is published). */
  paginate<P extends PageablePath>(path: P, query: Omit<Query<P>, 'offset'>): AsyncGenerator<Item<P>>;
  /**
   * Fetches `start_date`..`end_date` as consecutive sub-ranges of at most `maxDays` days (default
   * 31) that never span {@link analyticsSourceBoundary}, pages through each, and returns the
   * records in range order. For day- or hour-keyed reports the result is the whole range's series;
   * for ranked reports (products, keywords) each sub-range contributes its own ranking.
   */
  fetchRange<P extends Paths>(
    path: P,
    query: Omit<Query<P>, 'offset'>,
    options?: { maxDays?: number },
  ): Promise<Item<P>[]>;
}

/** Creates a client of the online-store analytics API. */
export function createAnalyticsClient<const ClientThrows extends boolean = false>(
  options: AnalyticsClientOptions<ClientThrows>,
): AnalyticsClient<ClientThrows> {
  const { auth, baseUrl, ...rest } = options;
  const client = assembleApiClient<paths, ClientThrows>({
    ...rest,
    api: analyticsLimitModel,
    baseUrl: baseUrl ?? analyticsBaseUrl,
    auth: bearerAuthMiddleware(auth, rest.onEvent),
    operationIds,
    httpsOnly,
    userAgent,
  });
  const get = client.GET as unknown as LooseGet;
  const pages = <T>(path: Paths, query: Record<string, unknown>, paging?: Partial<OffsetPagingOptions>) => {
    const pageSize = typeof query.limit === 'number' ? query.limit : analyticsMaxLimit;
    return paginateList<T>(get, path, listEndpoints[path].key, query, {
      pageSize,
      maxOffset: Number.POSITIVE_INFINITY,
      ...paging,
    });
  };
  const single = <T>(path: Paths, query: Record<string, unknown>): Promise<T[]> =>
    getList<T>(get, path, listEndpoints[path].key, { limit: analyticsMaxLimit, ...query });

  const paging = Object.assign(client, {
    paginate<P extends PageablePath>(path: P, query: Omit<Query<P>, 'offset'>): AsyncGenerator<Item<P>> {
      return pages<Item<P>>(path, query as Record<string, unknown>);
    },
    async fetchRange<P extends Paths>(
      path: P,
      query: Omit<Query<P>, 'offset'>,
      rangeOptions: { maxDays?: number } = {},
    ): Promise<Item<P>[]> {
      const base = query as Record<string, unknown> & { start_date: string; end_date: string };
      const ranges: DateRange[] = splitDateRange(
        { start: base.start_date, end: base.end_date },
        { maxDays: rangeOptions.maxDays ?? 31, boundaries: [analyticsSourceBoundary] },
      );
      const merged: Item<P>[] = [];
      for (const range of ranges) {
        const chunk = { ...base, start_date: range.start, end_date: range.end };
        if (listEndpoints[path].pageable) {
          for await (const item of pages<Item<P>>(path, chunk)) merged.push(item);
        } else merged.push(...(await single<Item<P>>(path, chunk)));
      }
      return merged;
    },
  });
  return attachOperationMethods<typeof paging, AnalyticsMethods>(
    paging,
    analyticsMethods,
    paging.paginate as LoosePaginate,
    (path) => listEndpoints[path as Paths]?.pageable === true,
  );
}
