// Who is calling: HTTP Basic client credentials (collection API) checked in constant time, or a
// bearer access token issued by the mock OAuth authority (admin and analytics APIs). It decides
// and explains; it writes no response.
import type { IncomingMessage } from 'node:http';
import type { OAuthAuthority } from '../oauth/oauth-authority.js';
import type { ApiProfile } from './api-profiles.js';

/** The authenticated caller. */
export interface Principal {
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** The mall a bearer token was issued for. */
  readonly mallId?: string;
}

/** Outcome of authenticating a request. */
export type Authentication = { ok: true; principal: Principal } | { ok: false; message: string };

/** Checks an `Authorization` header's Basic client credentials (basic-guard.ts). */
export type BasicGuard = (header: string | undefined) => Authentication;

/** Where credentials are checked against. */
export interface CredentialSources {
  /** Checks Basic client credentials (collection API). */
  readonly basic: BasicGuard;
  readonly authority?: OAuthAuthority;
}

async function authenticateBearer(
  header: string | undefined,
  authority: OAuthAuthority | undefined,
): Promise<Authentication> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (!header)
    return { ok: false, message: 'An access token is required: send Authorization: Bearer <access_token>.' };
  if (!token) return { ok: false, message: 'The Authorization header is not a bearer token.' };
  const check = await authority?.verifyAccessToken(token);
  if (!check?.ok) {
    const expired = check?.reason === 'expired';
    return {
      ok: false,
      message: expired ? 'The access token has expired: refresh it.' : 'The access token is invalid.',
    };
  }
  const { clientId, scopes, mallId } = check.grant;
  return { ok: true, principal: { clientId, scopes, mallId } };
}

/**
 * Authenticates a request as the API's profile says: Basic credentials at once, a bearer token
 * once the authority has checked it.
 */
export function authenticate(
  profile: ApiProfile,
  request: IncomingMessage,
  sources: CredentialSources,
): Authentication | Promise<Authentication> {
  const header = request.headers.authorization;
  if (profile.auth === 'bearer') return authenticateBearer(header, sources.authority);
  return sources.basic(header);
}
