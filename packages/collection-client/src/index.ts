// Public entry of @mall-api/collection-client.

export {
  ApiRequestError,
  type CallOptions,
  type ClientEvent,
  isMallApiError,
  MallApiError,
  type MallErrorKind,
  OffsetCapReachedError,
} from '@mall-api/client-kit';
export {
  type CollectionClient,
  type CollectionClientOptions,
  type CollectionListKeys,
  collectionBaseUrl,
  collectionMaxOffset,
  createCollectionClient,
} from './collection-client.js';
export type { components, operations, paths } from './generated/collection.js';
