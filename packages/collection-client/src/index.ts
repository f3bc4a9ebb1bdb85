// Public entry of @mall-api/collection-client.

export { OffsetCapReachedError } from '@mall-api/client-kit';
export * from '@mall-api/client-kit/client-surface';
export type { components, operations, paths } from '@mall-api/specs/types/collection';
export {
  type CollectionClient,
  type CollectionClientOptions,
  type CollectionListKeys,
  collectionBaseUrl,
  collectionMaxOffset,
  createCollectionClient,
} from './collection-client.js';
