// What the mock authorization server decides with (a state record its functions take): the
// registered apps, the clock, the specs' token lifetimes and scope aliases, the approving user and
// the store of what it issued; plus the values the authorize and token functions share. The
// authorize step is authorization-codes.ts's, the token endpoint's grants token-grants.ts's.
import { randomBytes } from 'node:crypto';
import { type TokenResponseBody as AuthTokenResponseBody, constantTimeEqual } from '@mall-api/auth';
import type { OAuthSettings } from './oauth-settings.js';
import type { Grant, OAuthStore } from './oauth-store.js';

/** An app registered with the mock platform. */
export interface RegisteredApp {
  readonly clientId: string;
  readonly clientSecret: string;
  /**
   * Redirect URIs the app registered. A loopback URI (`http://127.0.0.1/...` or
   * `http://localhost/...`) matches any port, as RFC 8252 allows for native apps.
   */
  readonly redirectUris: readonly string[];
  /** Scopes the app may be granted. */
  readonly scopes: readonly string[];
}

/**
 * The token endpoint's success body, as the platform sends it (datetimes without zone, +09:00):
 * the seed's fields, in @mall-api/auth's codec, plus the shop number and token type the platform's
 * reference also shows.
 */
export interface TokenResponseBody extends AuthTokenResponseBody {
  shop_no: string;
  token_type: 'Bearer';
}

/** An RFC 6749 error, with the HTTP status it is sent with. */
export interface OAuthFailure {
  status: 400 | 401;
  error:
    | 'invalid_request'
    | 'invalid_client'
    | 'invalid_grant'
    | 'unsupported_grant_type'
    | 'invalid_scope'
    | 'unsupported_response_type';
  description: string;
}

/** Outcome of checking a bearer token. */
export type TokenCheck = { ok: true; grant: Grant } | { ok: false; reason: 'unknown' | 'expired' };

/** Client credentials presented to the token endpoint. */
export type ClientAuth = { clientId: string; clientSecret: string } | undefined;

/** The state of one authorization server. */
export interface AuthorityState {
  readonly apps: readonly RegisteredApp[];
  readonly clock: (mallId: string) => number;
  readonly settings: Pick<OAuthSettings, 'lifetimes' | 'scopeAliases'>;
  readonly userId: string;
  readonly store: OAuthStore;
}

/** A new random code or token. */
export const newToken = () => randomBytes(16).toString('base64url');

/** The registered app with `clientId`. */
export const findApp = (state: AuthorityState, clientId: string | null) =>
  state.apps.find((app) => app.clientId === clientId);

/** The app whose id and secret the client presented; undefined when they do not match. */
export function authenticateClient(state: AuthorityState, client: ClientAuth): RegisteredApp | undefined {
  const app = client ? findApp(state, client.clientId) : undefined;
  return app && client && constantTimeEqual(app.clientSecret, client.clientSecret) ? app : undefined;
}
