// Public entry of @mall-api/admin-client.

export { type BearerAuth, OffsetCapReachedError } from '@mall-api/client-kit';
export * from '@mall-api/client-kit/client-surface';
export type { components, operations, paths, webhooks } from '@mall-api/specs/types/admin';
export {
  type AdminClient,
  type AdminClientOptions,
  type AdminListItem,
  type AdminListPath,
  type AdminPageablePath,
  type AdminPageQuery,
  type AdminWriteRequest,
  adminBaseUrl,
  adminLatestApiVersion,
  createAdminClient,
  KeysetPagingError,
} from './admin-client.js';
export {
  type AdminEvent,
  type AdminEventNo,
  type AdminEventOf,
  parseWebhook,
  WebhookParseError,
  type WebhookParseErrorCode,
} from './webhooks.js';
