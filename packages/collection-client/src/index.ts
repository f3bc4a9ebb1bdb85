// Public entry of @mall-api/collection-client.

export { ApiRequestError, OffsetCapReachedError } from '@mall-api/client-kit';
export {
  type CollectionClient,
  type CollectionClientOptions,
  type CollectionListKeys,
  collectionBaseUrl,
  collectionMaxOffset,
  createCollectionClient,
} from './collection-client.js';
export type { components, operations, paths } from './generated/collection.js';
