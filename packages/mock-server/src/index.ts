// Public entry of @mall-api/mock-server: start mock APIs programmatically, or build a handler.
export {
  defaultJournalLimits,
  defaultMallLimits,
  type JournalLimits,
  type MallLimits,
} from '@mall-api/mall-state';
export {
  type ControlAccess,
  defaultControlBodyLimit,
  defaultControlOrigins,
} from './control/control-guard.js';
export { type ErrorEnvelope, errorEnvelope, type Violation } from './http/error-envelope.js';
export { type ApiName, type ApiProfile, apiProfiles } from './identity/api-profiles.js';
export type { RegisteredApp, TokenResponseBody } from './oauth/authority-state.js';
export {
  type ClientCredential,
  demoCollectionClients,
  demoCollectionCredentials,
  demoOAuthApp,
  demoOAuthClient,
  docsRedirectPath,
} from './oauth/demo-credentials.js';
export { issueDemoTokens } from './oauth/demo-tokens.js';
export {
  createOAuthAuthority,
  type OAuthAuthority,
  type OAuthAuthorityOptions,
} from './oauth/oauth-authority.js';
export { type OAuthLifetimes, type OAuthSettings, oauthSettingsOf } from './oauth/oauth-settings.js';
export type { Grant } from './oauth/oauth-store.js';
export { platformOAuthSettings } from './oauth/platform-oauth.js';
export { type CompiledApi, compileApi } from './operations/compiled-api.js';
export { createMockApi, type MockApi, type MockApiOptions } from './server/mock-api.js';
export {
  type RunningMock,
  type ServeManyOptions,
  type ServeOptions,
  startMockServer,
  startMockServers,
} from './server/mock-server.js';
export type { SandboxOptions } from './server/sandbox-loader.js';
export { defaultApiBodyLimit } from './stages/read-body.js';
