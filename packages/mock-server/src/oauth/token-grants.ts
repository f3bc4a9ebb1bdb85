// The token endpoint's grants of the mock authorization server: a code exchanged for tokens
// (authorization_code, with its PKCE verifier), a refresh token rotated (refresh_token), and the
// check of a bearer access token. Issuing the code is authorization-codes.ts's.
import { formatTokenResponse } from '@mall-api/auth';
import {
  type AuthorityState,
  authenticateClient,
  type ClientAuth,
  newToken,
  type OAuthFailure,
  type TokenCheck,
  type TokenResponseBody,
} from './authority-state.js';
import type { Grant } from './oauth-store.js';
import { verifierMatches } from './pkce.js';

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

/** Stores a new access and refresh token for a grant and answers with them. */
async function issue(authority: AuthorityState, record: Grant): Promise<TokenResponseBody> {
  const { clock, store } = authority;
  const { lifetimes } = authority.settings;
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
      ...grant,
      issuedAt: new Date(now),
    }),
    shop_no: '1',
    token_type: 'Bearer' as const,
  };
}

/**
 * Exchanges a code (grant_type=authorization_code). A code issued with a PKCE challenge needs
 * the matching `codeVerifier`; a verifier for a code issued without one is refused.
 */
export async function exchangeCode(
  authority: AuthorityState,
  client: ClientAuth,
  code: string | null,
  redirectUri: string | null,
  codeVerifier: string | null = null,
): Promise<TokenResponseBody | OAuthFailure> {
  const app = authenticateClient(authority, client);
  if (!app) return invalidClient;
  if (!code) return { status: 400, error: 'invalid_request', description: 'code is required.' };
  const record = await authority.store.takeCode(code);
  if (!record || record.expiresAt <= authority.clock(record.mallId))
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
  return issue(authority, record);
}

/** Rotates a refresh token (grant_type=refresh_token): the old refresh token stops working. */
export async function refresh(
  authority: AuthorityState,
  client: ClientAuth,
  refreshToken: string | null,
): Promise<TokenResponseBody | OAuthFailure> {
  const app = authenticateClient(authority, client);
  if (!app) return invalidClient;
  if (!refreshToken)
    return { status: 400, error: 'invalid_request', description: 'refresh_token is required.' };
  const used = invalidGrant('The refresh token is invalid, already used or expired.');
  const record = await authority.store.refreshToken(refreshToken);
  if (!record || record.expiresAt <= authority.clock(record.mallId)) return used;
  if (record.clientId !== app.clientId)
    return invalidGrant('The refresh token was issued to another client.');
  // Taking it out is the atomic step: of two concurrent rotations only one takes it.
  return (await authority.store.takeRefreshToken(refreshToken)) ? issue(authority, record) : used;
}

/** Checks a bearer access token. */
export const verifyAccessToken = ({ store, clock }: AuthorityState, token: string): Promise<TokenCheck> =>
  store.accessToken(token).then((record): TokenCheck => {
    if (!record) return { ok: false, reason: 'unknown' };
    if (record.expiresAt <= clock(record.mallId)) return { ok: false, reason: 'expired' };
    return { ok: true, grant: record };
  });
