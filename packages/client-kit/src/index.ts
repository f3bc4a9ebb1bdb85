// Public entry of @mall-api/client-kit: what the three generated clients share.
export {
  OffsetCapReachedError,
  type OffsetPagingOptions,
  type PageFetcher,
  paginateOffset,
} from './offset-pager.js';
export { commaListQuery } from './query-serializer.js';
