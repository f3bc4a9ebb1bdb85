// `createAdminClient`: one method per operation of the shopping mall admin API (generated from the
// spec, e.g. `products.list`) over openapi-fetch on its generated `paths`, with
// bearer auth (a token manager or a fixed token), the per-mall leaky-bucket scheduler kept in step
// with `X-Api-Call-Limit`, the optional `X-Platform-Api-Version` header, and `paginate` over the
// pageable list endpoints up to each one's offset cap as the spec publishes it; on the products
// list it carries on past the cap with the spec's keyset cursor (`since_product_no`); retries,
// timeouts and typed errors come with it. Not for obtaining tokens: see `@mall-api/auth`
// (authorize URL, code exchange, token manager).
import {
  type ApiClient,
  assembleApiClient,
  attachOperationMethods,
  type BearerAuth,
  bearerAuthMiddleware,
  type ClientRuntimeOptions,
  getList,
  type LooseGet,
  type LoosePaginate,
  OffsetCapReachedError,
  type OffsetPagingOptions,
  paginateList,
} from '@mall-api/client-kit';
import { adminLimitModel, type RateLimitMiddlewareCommonOptions } from '@mall-api/rate-limit';
import type { paths } from '@mall-api/specs/types/admin';
import { apiVersions } from './generated/api-versions.js';
import { listEndpoints } from './generated/list-keys.js';
import { type AdminMethods, adminMethods } from './generated/methods.js';
import { httpsOnly, operationIds, userAgent } from './generated/operation-ids.js';

/** The latest API version the spec describes (`x-api-versions`), the one used when a request names none. */
export const adminLatestApiVersion = apiVersions[0];

/** Page size when neither the caller nor the spec gives one. */
const fallbackPageSize = 100;

const mallIdPattern = /^[a-z0-9][a-z0-9-]{0,62}$/i;
const apiVersionPattern = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The production base address of one mall's admin API, `https://{mallId}.cafe24api.com`.
 *
 * @throws {RangeError} when `mallId` is not a host label (letters, digits, hyphens).
 */
export function adminBaseUrl(mallId: string): string {
  assertMallId(mallId);
  return `https://${mallId}.cafe24api.com`;
}

function assertMallId(mallId: string): void {
  if (!mallIdPattern.test(mallId)) throw new RangeError(`not a mall ID: ${JSON.stringify(mallId)}`);
}

/** Options of {@link createAdminClient}; see {@link ClientRuntimeOptions} for retries, timeouts, errors and events. */
export interface AdminClientOptions<ClientThrows extends boolean = boolean>
  extends ClientRuntimeOptions<ClientThrows> {
  /** The mall the client works on: it names the default base URL and the rate-limit bucket. */
  mallId: string;
  /** A token manager from `@mall-api/auth` (recommended: refreshes and rotates), or `{ accessToken }`. */
  auth: BearerAuth;
  /** Defaults to {@link adminBaseUrl}`(mallId)`; the local mock is `http://127.0.0.1:4011`. */
  baseUrl?: string;
  /** A fetch implementation (tests, proxies); defaults to the global one. */
  fetch?: typeof globalThis.fetch;
  /**
   * Client-side scheduling under the leaky bucket (40 calls, draining 2 per second, per mall; on
   * by default, keyed by `mallId`). Pass a shared `RedisStore` as `store` when several workers
   * call for one mall; `false` turns scheduling off.
   */
  rateLimit?: RateLimitMiddlewareCommonOptions | false;
  /**
   * Sent as `X-Platform-Api-Version` on every request (`YYYY-MM-DD`, e.g.
   * {@link adminLatestApiVersion}); without it the platform uses its latest version. A request's
   * own header wins.
   */
  apiVersion?: string;
}

type Endpoints = typeof listEndpoints;
/** The admin list endpoints (GET operations whose body holds one array of records). */
export type AdminListPath = keyof Endpoints;
/** The list endpoints that page with `limit`/`offset`. */
export type AdminPageablePath = {
  [P in AdminListPath]: Endpoints[P]['pageable'] extends true ? P : never;
}[AdminListPath];
type CursorParameter<P extends AdminListPath> = Endpoints[P]['cursor'] extends {
  parameter: infer N extends string;
}
  ? N
  : never;
type ListQuery<P extends AdminListPath> = NonNullable<paths[P]['get']['parameters']['query']>;
/** The query `paginate` takes: the list's filters, without `offset` and the keyset cursor. */
export type AdminPageQuery<P extends AdminPageablePath> = Omit<ListQuery<P>, 'offset' | CursorParameter<P>>;
type ListBody<P extends AdminListPath> = paths[P]['get']['responses'][200]['content']['application/json'];
/** One record of a list endpoint, e.g. a category of `/api/v2/admin/categories`. */
export type AdminListItem<P extends AdminListPath> =
  ListBody<P> extends { [K in Endpoints[P]['key']]: readonly (infer T)[] } ? T : never;

/**
 * The `request` object of a create (`post`) or update (`put`) body, for building it apart from the
 * call: `AdminWriteRequest<'/api/v2/admin/categories', 'post'>`. A body is `{ shop_no?, request }`
 * with exactly one object.
 */
export type AdminWriteRequest<P extends keyof paths, M extends 'post' | 'put'> = paths[P][M] extends {
  requestBody: { content: { 'application/json': { request: infer R } } };
}
  ? R
  : never;

/** Raised when keyset paging (`since_product_no`) would skip or repeat records. */
export class KeysetPagingError extends Error {
  readonly code = 'cursor_not_advancing';
  constructor(readonly context: { path: string; parameter: string; after: number; received: unknown }) {
    super(
      `${context.path} answered a record whose ${context.parameter.replace(/^since_/, '')} ` +
        `(${String(context.received)}) is not after ${context.parameter}=${context.after}; paging stopped.`,
    );
    this.name = 'KeysetPagingError';
  }
}

/**
 * A typed client of the shopping mall admin API: one method per operation
 * (`admin.products.list({ category: 24 })`, which throws `MallApiError` on failure and resolves to
 * the body), and openapi-fetch's `GET`, `POST`… underneath, whose calls throw only when created
 * with `throwOnError: true` (`ClientThrows`).
 */
export interface AdminClient<ClientThrows extends boolean = false>
  extends ApiClient<paths, ClientThrows>,
    AdminMethods {
  /**
   * Iterates every record of a pageable list, `limit` records per call (default: the largest the
   * spec allows, 100), up to the offset cap the spec publishes for the endpoint (8000 for
   * categories and bundle products). At that cap it throws `OffsetCapReachedError` (or ends
   * quietly with `onCapReached: 'stop'`), except on the products list, which continues past its
   * cap of 5000 with `since_product_no` = the last product number read, without `offset`, `sort`,
   * `order` and `product_no` (which the spec does not let one combine with it). That continuation
   * is taken only when the products so far came in ascending `product_no` order, the order
   * `since_product_no` pages in; otherwise the cap applies as for the other lists. A failed page
   * throws `MallApiError` with the API's error envelope.
   */
  paginate<P extends AdminPageablePath>(
    path: P,
    query: AdminPageQuery<P>,
    options?: Pick<OffsetPagingOptions, 'onCapReached'>,
  ): AsyncGenerator<AdminListItem<P>>;
}

const numberField = (record: unknown, field: string): number | undefined => {
  if (typeof record !== 'object' || record === null) return undefined;
  const value = (record as Record<string, unknown>)[field];
  return typeof value === 'number' ? value : undefined;
};

/** Reads one list after another through `since_<field>`, from the record numbered `after`. */
async function* keysetPages<T>(
  get: LooseGet,
  path: AdminPageablePath,
  query: Record<string, unknown>,
  cursor: { readonly parameter: string; readonly field: string; readonly excludes: readonly string[] },
  pageSize: number,
  start: number,
): AsyncGenerator<T> {
  const base = Object.fromEntries(Object.entries(query).filter(([name]) => !cursor.excludes.includes(name)));
  let after = start;
  while (true) {
    const page = await getList<T>(get, path, listEndpoints[path].key, {
      ...base,
      limit: pageSize,
      [cursor.parameter]: after,
    });
    for (const record of page) {
      const value = numberField(record, cursor.field);
      if (value === undefined || value <= after) {
        throw new KeysetPagingError({ path, parameter: cursor.parameter, after, received: value });
      }
      after = value;
      yield record;
    }
    if (page.length < pageSize) return;
  }
}

/**
 * Creates a client of one mall's admin API.
 *
 * @throws {RangeError} when `mallId` is not a host label or `apiVersion` is not `YYYY-MM-DD`.
 */
export function createAdminClient<const ClientThrows extends boolean = false>(
  options: AdminClientOptions<ClientThrows>,
): AdminClient<ClientThrows> {
  const { mallId, auth, baseUrl, apiVersion, ...rest } = options;
  assertMallId(mallId); // it keys the rate-limit bucket even when a base URL is given
  if (apiVersion !== undefined && !apiVersionPattern.test(apiVersion)) {
    throw new RangeError(`apiVersion must be a release date (YYYY-MM-DD), not ${apiVersion}`);
  }
  const client = assembleApiClient<paths, ClientThrows>({
    ...rest,
    api: adminLimitModel,
    rateLimitKey: mallId,
    baseUrl: baseUrl ?? adminBaseUrl(mallId),
    auth: bearerAuthMiddleware(auth, rest.onEvent),
    ...(apiVersion ? { headers: { 'X-Platform-Api-Version': apiVersion } } : {}),
    operationIds,
    httpsOnly,
    userAgent,
  });
  const get = client.GET as unknown as LooseGet;

  async function* pages<T>(
    path: AdminPageablePath,
    query: Record<string, unknown>,
    onCapReached: 'throw' | 'stop',
  ): AsyncGenerator<T> {
    const endpoint: Endpoints[AdminPageablePath] = listEndpoints[path];
    const pageSize = typeof query.limit === 'number' ? query.limit : (endpoint.maxLimit ?? fallbackPageSize);
    const cursor = endpoint.cursor;
    let last: number | undefined;
    let ascending = true;
    try {
      for await (const record of paginateList<T>(get, path, endpoint.key, query, {
        pageSize,
        maxOffset: endpoint.maxOffset ?? Number.POSITIVE_INFINITY,
        onCapReached: cursor === null ? onCapReached : 'throw',
      })) {
        if (cursor !== null) {
          const value = numberField(record, cursor.field);
          ascending &&= value !== undefined && (last === undefined || value > last);
          last = value;
        }
        yield record;
      }
      return;
    } catch (error) {
      if (!(error instanceof OffsetCapReachedError) || cursor === null) throw error;
      if (!ascending || last === undefined) {
        if (onCapReached === 'stop') return;
        throw error;
      }
      yield* keysetPages<T>(get, path, query, cursor, pageSize, last);
    }
  }

  const paging = Object.assign(client, {
    paginate<P extends AdminPageablePath>(
      path: P,
      query: AdminPageQuery<P>,
      pagingOptions: Pick<OffsetPagingOptions, 'onCapReached'> = {},
    ): AsyncGenerator<AdminListItem<P>> {
      return pages<AdminListItem<P>>(
        path,
        query as Record<string, unknown>,
        pagingOptions.onCapReached ?? 'throw',
      );
    },
  });
  return attachOperationMethods<typeof paging, AdminMethods>(
    paging,
    adminMethods,
    paging.paginate as LoosePaginate,
    (path) => listEndpoints[path as AdminListPath]?.pageable === true,
  );
}
