// Who is calling: HTTP Basic client credentials (collection API) checked in constant time, or a
// bearer access token issued by the mock OAuth authority (admin and analytics APIs). It decides
// and explains; it writes no response.
import type { IncomingMessage } from 'node:http';
import type { TokenCheck } from '../oauth/authority-state.js';
import type { OAuthAuthority } from '../oauth/oauth-authority.js';
import type { ApiProfile } from './api-profiles.js';
import type { BasicGuard } from './basic-guard.js';

/** The authenticated caller. */
export interface Principal {
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** The mall a bearer token was issued for. */
  readonly mallId?: string;
}

/** Outcome of authenticating a request. */
export type Authentication = { ok: true; principal: Principal } | { ok: false; message: string };

/** Where credentials are checked against. */
export interface CredentialSources {
  /** Checks Basic client credentials (collection API). */
  readonly basic: BasicGuard;
  readonly authority?: OAuthAuthority;
}

const basicMessages = {
  missing: 'Authentication is required: send Basic credentials (client ID and client secret).',
  malformed: 'The Authorization header is not valid Basic credentials.',
  invalid: 'The client ID or client secret is invalid.',
} as const;

async function authenticateBearer(
  header: string | undefined,
  authority: OAuthAuthority | undefined,
): Promise<Authentication> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (!header)
    return { ok: false, message: 'An access token is required: send Authorization: Bearer <access_token>.' };
  if (!token) return { ok: false, message: 'The Authorization header is not a bearer token.' };
  if (!authority) return { ok: false, message: 'The access token is invalid.' };
  return bearerOutcome(await authority.verifyAccessToken(token));
}

function bearerOutcome(check: TokenCheck): Authentication {
  if (!check.ok) {
    return {
      ok: false,
      message:
        check.reason === 'expired'
          ? 'The access token has expired: refresh it.'
          : 'The access token is invalid.',
    };
  }
  const { clientId, scopes, mallId } = check.grant;
  return { ok: true, principal: { clientId, scopes, mallId } };
}

/** Authenticates a request as the API's profile says. */
export function authenticate(
  profile: ApiProfile,
  request: IncomingMessage,
  sources: CredentialSources,
): Promise<Authentication> {
  const header = request.headers.authorization;
  if (profile.auth === 'bearer') return authenticateBearer(header, sources.authority);
  const outcome = sources.basic(header);
  return Promise.resolve(
    outcome.ok
      ? { ok: true, principal: { clientId: outcome.clientId, scopes: outcome.scopes } }
      : { ok: false, message: basicMessages[outcome.reason] },
  );
}
