// The mock platform's OAuth 2.0 authorization server, assembled from its state record
// (authority-state.ts) and its steps (authorization-codes.ts, token-grants.ts). Every admin and
// analytics mock of a process shares one, so the tokens it issues are what they accept; what it
// issued lives in its store (oauth-store.ts: memory, or Redis shared by replicas), HTTP lives in
// oauth-routes.ts. The registered apps are configuration, the same on every replica, not state.
import type {
  AuthorityState,
  ClientAuth,
  OAuthFailure,
  RegisteredApp,
  TokenCheck,
  TokenResponseBody,
} from './authority-state.js';
import { type AuthorizeRequest, type AuthorizeResult, authorize } from './authorization-codes.js';
import type { OAuthSettings } from './oauth-settings.js';
import { memoryOAuthStore, type OAuthStore } from './oauth-store.js';
import { exchangeCode, refresh, verifyAccessToken } from './token-grants.js';

/** Options of {@link createOAuthAuthority}. */
export interface OAuthAuthorityOptions {
  readonly apps: readonly RegisteredApp[];
  /** The time at a mall (each mall may have its own clock in tests); defaults to real time. */
  readonly clock?: (mallId: string) => number;
  /** Where codes and tokens live (default: this process's memory, on `clock`). */
  readonly store?: OAuthStore;
  /** The user who "approves" every authorization (the mock has no login page). */
  readonly userId?: string;
  /** The lifetimes and scope aliases of the specs whose tokens it issues (oauth-settings.ts). */
  readonly settings: Pick<OAuthSettings, 'lifetimes' | 'scopeAliases'>;
}

/** The mock authorization server. */
export interface OAuthAuthority {
  /** Validates an authorization request and issues a code; returns the redirect location. */
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  /**
   * Exchanges a code (grant_type=authorization_code). A code issued with a PKCE challenge needs
   * the matching `codeVerifier`; a verifier for a code issued without one is refused.
   */
  exchangeCode(
    client: ClientAuth,
    code: string | null,
    redirectUri: string | null,
    codeVerifier?: string | null,
  ): Promise<TokenResponseBody | OAuthFailure>;
  /** Rotates a refresh token (grant_type=refresh_token): the old refresh token stops working. */
  refresh(client: ClientAuth, refreshToken: string | null): Promise<TokenResponseBody | OAuthFailure>;
  /** Checks a bearer access token. */
  verifyAccessToken(token: string): Promise<TokenCheck>;
  /** Revokes every code and token issued for a mall (its reset): they are refused from now on. */
  revokeMall(mallId: string): Promise<void>;
}

/** Creates the mock authorization server. */
export function createOAuthAuthority(options: OAuthAuthorityOptions): OAuthAuthority {
  const clock = options.clock ?? (() => Date.now());
  const state: AuthorityState = {
    apps: options.apps,
    clock,
    settings: options.settings,
    userId: options.userId ?? 'demo-admin',
    store: options.store ?? memoryOAuthStore(clock),
  };
  return {
    authorize: (request) => authorize(state, request),
    exchangeCode: (client, code, redirectUri, codeVerifier) =>
      exchangeCode(state, client, code, redirectUri, codeVerifier),
    refresh: (client, refreshToken) => refresh(state, client, refreshToken),
    verifyAccessToken: (token) => verifyAccessToken(state, token),
    revokeMall: (mallId) => state.store.revokeMall(mallId),
  };
}
