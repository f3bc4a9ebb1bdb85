// Public entry of @mall-api/mock-server: start mock APIs programmatically, or build a handler.
export {
  defaultJournalLimits,
  defaultMallLimits,
  type JournalLimits,
  type MallLimits,
} from '@mall-api/mall-state';
export { type ApiName, type ApiProfile, apiProfiles } from './api-profiles.js';
export { type CompiledApi, compileApi } from './compiled-api.js';
export {
  type ControlAccess,
  defaultControlBodyLimit,
  defaultControlOrigins,
} from './control/control-guard.js';
export {
  type ClientCredential,
  demoCollectionClients,
  demoCollectionCredentials,
  demoOAuthApp,
  demoOAuthClient,
  docsRedirectPath,
} from './demo-credentials.js';
export { type ErrorEnvelope, errorEnvelope, type Violation } from './error-envelope.js';
export { createMockApi, type MockApi, type MockApiOptions } from './mock-api.js';
export {
  type RunningMock,
  type ServeManyOptions,
  type ServeOptions,
  startMockServer,
  startMockServers,
} from './mock-server.js';
export { issueDemoTokens } from './oauth/demo-tokens.js';
export {
  createOAuthAuthority,
  type Grant,
  type OAuthAuthority,
  type OAuthAuthorityOptions,
  type RegisteredApp,
  type TokenResponseBody,
} from './oauth/oauth-authority.js';
export { type OAuthLifetimes, type OAuthSettings, oauthSettingsOf } from './oauth/oauth-settings.js';
export { platformOAuthSettings } from './oauth/platform-oauth.js';
export { defaultApiBodyLimit } from './pipeline/stages/read-body.js';
export type { SandboxOptions } from './sandbox-loader.js';
