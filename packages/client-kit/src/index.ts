// Public entry of @mall-api/client-kit: what the three generated clients share.
export { type ApiClientParts, assembleApiClient } from './api-client.js';
export { type BearerAuth, bearerAuthMiddleware } from './bearer-auth.js';
export { type DateRange, splitDateRange } from './date-ranges.js';
export { ApiRequestError, type LooseGet, paginateList } from './list-pager.js';
export {
  OffsetCapReachedError,
  type OffsetPagingOptions,
  type PageFetcher,
  paginateOffset,
} from './offset-pager.js';
export { commaListQuery } from './query-serializer.js';
