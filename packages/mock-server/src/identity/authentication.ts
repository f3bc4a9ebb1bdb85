// Who is calling: HTTP Basic client credentials (collection API) checked in constant time, or a
// bearer access token issued by the mock OAuth authority (admin and analytics APIs). It decides
// and explains; it writes no response.
import type { IncomingMessage } from 'node:http';
import type { TokenCheck } from '../oauth/authority-state.js';
import type { OAuthAuthority } from '../oauth/oauth-authority.js';
import type { ApiProfile } from './api-profiles.js';
import type { BasicAuthOutcome, BasicGuard } from './basic-guard.js';

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

/** The outcome of Basic credentials, one per guard outcome (a remembered one is the same each time). */
const basicOutcomes = new WeakMap<BasicAuthOutcome, Authentication>();
const basicAuthentication = (outcome: BasicAuthOutcome): Authentication => {
  let caller = basicOutcomes.get(outcome);
  if (!caller) {
    caller = Object.freeze(
      outcome.ok
        ? { ok: true, principal: Object.freeze({ clientId: outcome.clientId, scopes: outcome.scopes }) }
        : { ok: false, message: basicMessages[outcome.reason] },
    );
    basicOutcomes.set(outcome, caller);
  }
  return caller;
};

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
  return basicAuthentication(sources.basic(header));
}
