// Pages a list endpoint of a mall client: calls GET with `limit`/`offset` and reads the records
// under the endpoint's list key, up to the API's offset cap. A failed page throws `MallApiError`.
// Shared by the three clients; each supplies its own list keys and caps.
import { MallApiError } from './errors.js';
import { type OffsetPagingOptions, paginateOffset } from './offset-pager.js';

/** The GET method of a mall client, seen loosely enough to call any list path. */
export type LooseGet = (
  path: string,
  init: { params: { query: Record<string, unknown> }; throwOnError: true },
) => Promise<{ data?: unknown }>;

/**
 * The records under `listKey` of one GET of `path` with `query`.
 *
 * @throws MallApiError when the API answers an error status or no answer arrives.
 */
export async function getList<T>(
  get: LooseGet,
  path: string,
  listKey: string,
  query: Record<string, unknown>,
): Promise<T[]> {
  const { data } = await get(path, { params: { query }, throwOnError: true });
  const records = (data as Record<string, unknown> | undefined)?.[listKey];
  return Array.isArray(records) ? (records as T[]) : [];
}

/** Iterates the records under `listKey` of `path`, page by page. */
export function paginateList<T>(
  get: LooseGet,
  path: string,
  listKey: string,
  query: Record<string, unknown>,
  options: OffsetPagingOptions,
): AsyncGenerator<T> {
  return paginateOffset<T>(
    ({ offset, limit }) => getList<T>(get, path, listKey, { ...query, limit, offset }),
    options,
  );
}

/** The error `paginate` raised before `MallApiError` existed; the same class. */
export const ApiRequestError = MallApiError;
