// `createCollectionClient`: one method per operation of the curated collection API (generated from
// the spec, e.g. `shops.list`) over openapi-fetch on its generated `paths`,
// with Basic auth, comma-list query serialization and the collection rate limit (40 calls per
// minute) preset, retries, timeouts and typed errors, plus `paginate` over the list endpoints up to
// the 5000 offset cap.
import { basicAuthorization } from '@mall-api/auth';
import {
  type ApiClient,
  assembleApiClient,
  attachOperationMethods,
  type ClientRuntimeOptions,
  type LooseGet,
  type LoosePaginate,
  type OffsetPagingOptions,
  paginateList,
} from '@mall-api/client-kit';
import { collectionLimitModel, type RateLimitMiddlewareCommonOptions } from '@mall-api/rate-limit';
import type { paths } from '@mall-api/specs/types/collection';
import type { Middleware } from 'openapi-fetch';
import { type CollectionMethods, collectionMethods } from './generated/methods.js';
import { httpsOnly, operationIds, userAgent } from './generated/operation-ids.js';

/** Production base address of the collection API. */
export const collectionBaseUrl = 'https://collection-api.cafe24.com';

/** Largest `offset` the collection API accepts. */
export const collectionMaxOffset = 5000;

/** Options of {@link createCollectionClient}; see {@link ClientRuntimeOptions} for retries, timeouts, errors and events. */
export interface CollectionClientOptions<ClientThrows extends boolean = boolean>
  extends ClientRuntimeOptions<ClientThrows> {
  /** Your client ID (the Basic user name). */
  clientId: string;
  /** Your client secret (the Basic password). */
  clientSecret: string;
  /** Defaults to {@link collectionBaseUrl}; the local mock is `http://127.0.0.1:4010`. */
  baseUrl?: string;
  /** A fetch implementation (tests, proxies); defaults to the global one. */
  fetch?: typeof globalThis.fetch;
  /**
   * Client-side scheduling under the 40-calls-per-minute limit (on by default), with its
   * options, or `false` to turn it off (for example behind your own limiter).
   */
  rateLimit?: RateLimitMiddlewareCommonOptions | false;
}

/** The list endpoints and the key that holds their records. */
export interface CollectionListKeys {
  '/api/shops': 'shops';
  '/api/products': 'products';
  '/api/products/standardtags': 'standardtags';
  '/api/storeproducts': 'store_products';
}
type ListPath = keyof CollectionListKeys;
type ListQuery<P extends ListPath> = Omit<NonNullable<paths[P]['get']['parameters']['query']>, 'offset'>;
type ListBody<P extends ListPath> = paths[P]['get']['responses'][200]['content']['application/json'];
type ListItem<P extends ListPath> =
  ListBody<P> extends { [K in CollectionListKeys[P]]: readonly (infer T)[] } ? T : never;

const listKeys: CollectionListKeys = {
  '/api/shops': 'shops',
  '/api/products': 'products',
  '/api/products/standardtags': 'standardtags',
  '/api/storeproducts': 'store_products',
};

/**
 * A typed client of the collection API: one method per operation (`collection.shops.list({ limit: 10 })`,
 * which throws `MallApiError` on failure and resolves to the body), and openapi-fetch's `GET`
 * underneath, whose calls throw only when created with `throwOnError: true` (`ClientThrows`).
 */
export interface CollectionClient<ClientThrows extends boolean = false>
  extends ApiClient<paths, ClientThrows>,
    CollectionMethods {
  /**
   * Iterates every record of a list endpoint, requesting `limit` records per call (default 100)
   * and stopping at offset 5000, where it throws `OffsetCapReachedError` unless told to stop quietly.
   * A failed page throws `MallApiError` with the API's error envelope.
   */
  paginate<P extends ListPath>(
    path: P,
    query: ListQuery<P>,
    options?: Pick<OffsetPagingOptions, 'onCapReached' | 'startOffset'>,
  ): AsyncGenerator<ListItem<P>>;
}

function basicAuthMiddleware(clientId: string, clientSecret: string): Middleware {
  const header = basicAuthorization(clientId, clientSecret);
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', header);
      return request;
    },
  };
}

/** Creates a client of the curated collection retrieval API. */
export function createCollectionClient<const ClientThrows extends boolean = false>(
  options: CollectionClientOptions<ClientThrows>,
): CollectionClient<ClientThrows> {
  const { clientId, clientSecret, baseUrl, ...rest } = options;
  const client = assembleApiClient<paths, ClientThrows>({
    ...rest,
    api: collectionLimitModel,
    baseUrl: baseUrl ?? collectionBaseUrl,
    auth: basicAuthMiddleware(clientId, clientSecret),
    operationIds,
    httpsOnly,
    userAgent,
  });
  const paging = Object.assign(client, {
    paginate<P extends ListPath>(
      path: P,
      query: ListQuery<P>,
      pagingOptions: Pick<OffsetPagingOptions, 'onCapReached' | 'startOffset'> = {},
    ): AsyncGenerator<ListItem<P>> {
      const base = query as Record<string, unknown>;
      const pageSize = typeof base.limit === 'number' ? base.limit : 100;
      return paginateList<ListItem<P>>(client.GET as unknown as LooseGet, path, listKeys[path], base, {
        pageSize,
        maxOffset: collectionMaxOffset,
        ...pagingOptions,
      });
    },
  });
  return attachOperationMethods<typeof paging, CollectionMethods>(
    paging,
    collectionMethods,
    paging.paginate as LoosePaginate,
    (path) => path in listKeys,
  );
}
