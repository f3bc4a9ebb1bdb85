// The mock platform's OAuth 2.0 authorization server state: registered apps, single-use
// authorization codes, access tokens and rotating refresh tokens, living as long as its settings
// say (the specs' `x-token-lifetimes`: oauth-settings.ts), on an injectable clock.
// Every admin and analytics mock of one process shares one authority, so tokens it issues are
// what those mocks accept. It decides; what it issued lives in its store (oauth-store.ts: this
// process's memory, or Redis shared by replicas), HTTP lives in oauth-routes.ts. One async
// interface over either store. The registered apps are configuration, the same on every replica,
// not state.
import { randomBytes } from 'node:crypto';
import {
  type TokenResponseBody as AuthTokenResponseBody,
  constantTimeEqual,
  formatTokenResponse,
} from '@mall-api/auth';
import type { OAuthSettings } from './oauth-settings.js';
import { type CodeRecord, type Grant, memoryOAuthStore, type OAuthStore } from './oauth-store.js';
import { readPkceChallenge, verifierMatches } from './pkce.js';
import { issuedScopeName } from './scope-names.js';

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

export type { Grant } from './oauth-store.js';

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
  authorize(request: {
    mallId: string;
    responseType: string | null;
    clientId: string | null;
    redirectUri: string | null;
    scope: string | null;
    state: string | null;
    /** PKCE (RFC 7636): `code_challenge` and `code_challenge_method`, S256 only. */
    codeChallenge?: string | null;
    codeChallengeMethod?: string | null;
  }): Promise<{ ok: true; location: string } | { ok: false; failure: OAuthFailure; redirectable: boolean }>;
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

/** Client credentials presented to the token endpoint. */
export type ClientAuth = { clientId: string; clientSecret: string } | undefined;

const newToken = () => randomBytes(16).toString('base64url');

function redirectMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  try {
    const a = new URL(registered);
    const b = new URL(presented);
    const loopback = (u: URL) =>
      u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
    return (
      loopback(a) &&
      loopback(b) &&
      a.hostname === b.hostname &&
      a.pathname === b.pathname &&
      a.search === b.search
    );
  } catch {
    return false;
  }
}

/** Creates the mock authorization server. */
export function createOAuthAuthority(options: OAuthAuthorityOptions): OAuthAuthority {
  const clock = options.clock ?? (() => Date.now());
  const { lifetimes, scopeAliases } = options.settings;
  const userId = options.userId ?? 'demo-admin';
  const store = options.store ?? memoryOAuthStore(clock);

  const findApp = (clientId: string | null) => options.apps.find((app) => app.clientId === clientId);
  const authenticateClient = (client: ClientAuth): RegisteredApp | undefined => {
    const app = client ? findApp(client.clientId) : undefined;
    return app && client && constantTimeEqual(app.clientSecret, client.clientSecret) ? app : undefined;
  };
  const invalidClient: OAuthFailure = {
    status: 401,
    error: 'invalid_client',
    description: 'Client authentication failed.',
  };
  const invalidGrant = (description: string): OAuthFailure => ({
    status: 400,
    error: 'invalid_grant',
    description,
  });

  const issue = async (record: Grant): Promise<TokenResponseBody> => {
    const grant: Grant = {
      clientId: record.clientId,
      mallId: record.mallId,
      userId: record.userId,
      scopes: record.scopes,
    };
    const now = clock(grant.mallId);
    const access = newToken();
    const refresh = newToken();
    await store.putTokens(access, { ...grant, expiresAt: now + lifetimes.accessTokenMs }, refresh, {
      ...grant,
      expiresAt: now + lifetimes.refreshTokenMs,
    });
    return {
      ...formatTokenResponse({
        accessToken: access,
        accessTokenExpiresAt: new Date(now + lifetimes.accessTokenMs),
        refreshToken: refresh,
        refreshTokenExpiresAt: new Date(now + lifetimes.refreshTokenMs),
        clientId: grant.clientId,
        mallId: grant.mallId,
        userId: grant.userId,
        scopes: grant.scopes,
        issuedAt: new Date(now),
      }),
      shop_no: '1',
      token_type: 'Bearer' as const,
    };
  };

  return {
    async authorize({
      mallId,
      responseType,
      clientId,
      redirectUri,
      scope,
      state,
      codeChallenge,
      codeChallengeMethod,
    }) {
      const app = findApp(clientId);
      if (!app) {
        return {
          ok: false,
          redirectable: false,
          // RFC 6749 4.1.2.1: an unknown client must not be redirected to; the operator sees a 400.
          failure: { status: 400, error: 'invalid_request', description: 'The client_id is not registered.' },
        };
      }
      if (!redirectUri || !app.redirectUris.some((registered) => redirectMatches(registered, redirectUri))) {
        return {
          ok: false,
          redirectable: false,
          failure: {
            status: 400,
            error: 'invalid_request',
            description: 'The redirect_uri is not registered for this app.',
          },
        };
      }
      const redirectError = (failure: OAuthFailure) => {
        const target = new URL(redirectUri);
        target.searchParams.set('error', failure.error);
        target.searchParams.set('error_description', failure.description);
        if (state !== null) target.searchParams.set('state', state);
        return { ok: true as const, location: target.toString() };
      };
      if (responseType !== 'code') {
        return redirectError({
          status: 400,
          error: 'unsupported_response_type',
          description: 'response_type must be code.',
        });
      }
      const requested = (scope ?? '').split(/[,\s]+/).filter(Boolean);
      if (requested.length === 0 || requested.some((s) => !app.scopes.includes(s))) {
        return redirectError({
          status: 400,
          error: 'invalid_scope',
          description: 'A requested scope is unknown or not allowed for this app.',
        });
      }
      const pkce = readPkceChallenge(codeChallenge ?? null, codeChallengeMethod ?? null);
      if (!pkce.ok)
        return redirectError({ status: 400, error: 'invalid_request', description: pkce.description });
      const code = newToken();
      const record: CodeRecord = {
        pkce: pkce.pkce,
        clientId: app.clientId,
        mallId,
        userId,
        scopes: requested.map((name) => issuedScopeName(name, scopeAliases)),
        redirectUri,
        expiresAt: clock(mallId) + lifetimes.codeMs,
      };
      const target = new URL(redirectUri);
      target.searchParams.set('code', code);
      if (state !== null) target.searchParams.set('state', state);
      await store.putCode(code, record);
      return { ok: true as const, location: target.toString() };
    },

    async exchangeCode(client, code, redirectUri, codeVerifier = null) {
      const app = authenticateClient(client);
      if (!app) return invalidClient;
      if (!code) return { status: 400, error: 'invalid_request', description: 'code is required.' };
      const record = await store.takeCode(code);
      if (!record || record.expiresAt <= clock(record.mallId))
        return invalidGrant('The authorization code is invalid, used or expired.');
      if (record.clientId !== app.clientId)
        return invalidGrant('The authorization code was issued to another client.');
      if (redirectUri !== record.redirectUri)
        return invalidGrant('redirect_uri does not match the authorization request.');
      if (record.pkce ? !verifierMatches(record.pkce, codeVerifier) : codeVerifier !== null)
        return invalidGrant(
          record.pkce
            ? 'code_verifier does not match the code_challenge of the authorization request.'
            : 'code_verifier was sent, but the authorization request had no code_challenge.',
        );
      return issue(record);
    },

    async refresh(client, refreshToken) {
      const app = authenticateClient(client);
      if (!app) return invalidClient;
      if (!refreshToken)
        return { status: 400, error: 'invalid_request', description: 'refresh_token is required.' };
      const used = invalidGrant('The refresh token is invalid, already used or expired.');
      const record = await store.refreshToken(refreshToken);
      if (!record || record.expiresAt <= clock(record.mallId)) return used;
      if (record.clientId !== app.clientId)
        return invalidGrant('The refresh token was issued to another client.');
      // Taking it out is the atomic step: of two concurrent rotations only one takes it.
      return (await store.takeRefreshToken(refreshToken)) ? issue(record) : used;
    },

    verifyAccessToken: (token) =>
      store.accessToken(token).then((record): TokenCheck => {
        if (!record) return { ok: false, reason: 'unknown' };
        if (record.expiresAt <= clock(record.mallId)) return { ok: false, reason: 'expired' };
        return { ok: true, grant: record };
      }),

    revokeMall: (mallId) => store.revokeMall(mallId),
  };
}
