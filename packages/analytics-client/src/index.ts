// Public entry of @mall-api/analytics-client.

export {
  ApiRequestError,
  type BearerAuth,
  type CallOptions,
  type ClientEvent,
  isMallApiError,
  MallApiError,
  type MallErrorKind,
} from '@mall-api/client-kit';
export {
  type AnalyticsClient,
  type AnalyticsClientOptions,
  analyticsBaseUrl,
  analyticsMaxLimit,
  analyticsSourceBoundary,
  createAnalyticsClient,
} from './analytics-client.js';
export type { components, operations, paths } from './generated/analytics.js';
