// Public entry of @mall-api/analytics-client.

export type { BearerAuth } from '@mall-api/client-kit';
export * from '@mall-api/client-kit/client-surface';
export type { components, operations, paths } from '@mall-api/specs/types/analytics';
export {
  type AnalyticsClient,
  type AnalyticsClientOptions,
  analyticsBaseUrl,
  analyticsMaxLimit,
  analyticsSourceBoundary,
  createAnalyticsClient,
} from './analytics-client.js';
