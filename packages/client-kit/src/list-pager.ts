// Pages a list endpoint of an openapi-fetch client: calls GET with `limit`/`offset` and reads the
// records under the endpoint's list key, up to the API's offset cap. Shared by the three clients;
// each supplies its own list keys and caps.
import { type OffsetPagingOptions, paginateOffset } from './offset-pager.js';

/** The GET method of an openapi-fetch client, seen loosely enough to call any list path. */
export type LooseGet = (
  path: string,
  init: { params: { query: Record<string, unknown> } },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Thrown when a page request fails; carries the API's error envelope. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`the API answered ${status}`);
    this.name = 'ApiRequestError';
  }
}

/** Iterates the records under `listKey` of `path`, page by page. */
export function paginateList<T>(
  get: LooseGet,
  path: string,
  listKey: string,
  query: Record<string, unknown>,
  options: OffsetPagingOptions,
): AsyncGenerator<T> {
  return paginateOffset<T>(async ({ offset, limit }) => {
    const { data, error, response } = await get(path, { params: { query: { ...query, limit, offset } } });
    if (!data) throw new ApiRequestError(response.status, error);
    const records = (data as Record<string, unknown>)[listKey];
    return Array.isArray(records) ? (records as T[]) : [];
  }, options);
}
