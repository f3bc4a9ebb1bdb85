// The authorize step of the mock authorization server (RFC 6749 4.1.1, PKCE per RFC 7636): checks
// the app, its redirect URI and the scopes asked for, and stores a single-use code. The token
// endpoint that redeems it is token-grants.ts's.
import { type AuthorityState, findApp, newToken, type OAuthFailure } from './authority-state.js';
import type { CodeRecord } from './oauth-store.js';
import { readPkceChallenge } from './pkce.js';
import { issuedScopeName } from './scope-names.js';

/** An authorization request, as the authorize endpoint read it. */
export interface AuthorizeRequest {
  mallId: string;
  responseType: string | null;
  clientId: string | null;
  redirectUri: string | null;
  scope: string | null;
  state: string | null;
  /** PKCE (RFC 7636): `code_challenge` and `code_challenge_method`, S256 only. */
  codeChallenge?: string | null;
  codeChallengeMethod?: string | null;
}

/** The redirect to send, or a failure (`redirectable` when it may go to the redirect URI). */
export type AuthorizeResult =
  | { ok: true; location: string }
  | { ok: false; failure: OAuthFailure; redirectable: boolean };

/** Whether a presented redirect URI is a registered one (a loopback one on any port, RFC 8252). */
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

/** Validates an authorization request and issues a code; returns the redirect location. */
export async function authorize(
  authority: AuthorityState,
  {
    mallId,
    responseType,
    clientId,
    redirectUri,
    scope,
    state,
    codeChallenge,
    codeChallengeMethod,
  }: AuthorizeRequest,
): Promise<AuthorizeResult> {
  // RFC 6749 4.1.2.1: an unknown client or redirect URI must not be redirected to; the operator sees a 400.
  const refused = (description: string): AuthorizeResult => ({
    ok: false,
    redirectable: false,
    failure: { status: 400, error: 'invalid_request', description },
  });
  const app = findApp(authority, clientId);
  if (!app) return refused('The client_id is not registered.');
  if (!redirectUri || !app.redirectUris.some((registered) => redirectMatches(registered, redirectUri)))
    return refused('The redirect_uri is not registered for this app.');
  /** The redirect URI with `parameters` and the request's state. */
  const redirect = (parameters: Record<string, string>) => {
    const target = new URL(redirectUri);
    for (const [name, value] of Object.entries(parameters)) target.searchParams.set(name, value);
    if (state !== null) target.searchParams.set('state', state);
    return { ok: true as const, location: target.toString() };
  };
  const redirectError = (error: OAuthFailure['error'], description: string) =>
    redirect({ error, error_description: description });
  if (responseType !== 'code')
    return redirectError('unsupported_response_type', 'response_type must be code.');
  const requested = (scope ?? '').split(/[,\s]+/).filter(Boolean);
  if (requested.length === 0 || requested.some((s) => !app.scopes.includes(s)))
    return redirectError('invalid_scope', 'A requested scope is unknown or not allowed for this app.');
  const pkce = readPkceChallenge(codeChallenge ?? null, codeChallengeMethod ?? null);
  if (!pkce.ok) return redirectError('invalid_request', pkce.description);
  const code = newToken();
  const record: CodeRecord = {
    pkce: pkce.pkce,
    clientId: app.clientId,
    mallId,
    userId: authority.userId,
    scopes: requested.map((name) => issuedScopeName(name, authority.settings.scopeAliases)),
    redirectUri,
    expiresAt: authority.clock(mallId) + authority.settings.lifetimes.codeMs,
  };
  await authority.store.putCode(code, record);
  return redirect({ code });
}
