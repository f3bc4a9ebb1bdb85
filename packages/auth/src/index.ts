// Public entry point of @mall-api/auth: Basic client authentication, the OAuth authorization-code
// client, token sets and their platform (+09:00) datetimes, the token manager, the memory and file
// token stores, the bearer middleware for openapi-fetch, and the error types. The Redis token store
// is NOT exported here (it needs ioredis): import it from `@mall-api/auth/redis`.
export {
  type BasicCredentials,
  basicAuthorization,
  credentialsMatch,
  parseBasicAuthorization,
} from './basic.js';
export {
  type BearerMiddleware,
  type BearerMiddlewareOptions,
  type BearerRequestParams,
  type BearerResponseParams,
  createBearerMiddleware,
  type TokenRefreshEvent,
} from './bearer-middleware.js';
export { constantTimeEqual } from './constant-time.js';
export {
  AuthError,
  type AuthErrorCode,
  type AuthErrorContext,
  type AuthErrorOptions,
  OAuthError,
  type OAuthErrorOptions,
  type ReauthorizationReason,
  ReauthorizationRequiredError,
  TokenStoreError,
} from './errors.js';
export { createFileTokenStore, type FileTokenStoreOptions } from './file-token-store.js';
export { type LoginSummary, type LoopbackLoginOptions, loginWithLoopback } from './login-flow.js';
export { createMemoryTokenStore, type MemoryTokenStoreOptions } from './memory-token-store.js';
export {
  type AuthorizeRequest,
  type AuthorizeUrlOptions,
  buildAuthorizeUrl,
  createState,
  type ExchangeCodeOptions,
  exchangeCode,
  type FetchFunction,
  oauthUrl,
  type RefreshTokenOptions,
  refreshToken,
  type ScopeSeparator,
  type TokenEndpointOptions,
  verifyState,
} from './oauth-client.js';
export { formatPlatformDateTime, PLATFORM_UTC_OFFSET_MS, parsePlatformDateTime } from './platform-time.js';
export {
  type Clock,
  createTokenManager,
  type TokenManager,
  type TokenManagerOptions,
} from './token-manager.js';
export {
  formatTokenResponse,
  parseTokenResponse,
  type TokenResponseBody,
  type TokenSet,
} from './token-set.js';
export { type LockOptions, type StoreClock, systemStoreClock, type TokenStore } from './token-store.js';
