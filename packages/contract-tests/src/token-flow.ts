// The OAuth 2.0 authorization-code flow the contract runner goes through for a registered app, with
// @mall-api/auth: it asks the authorize endpoint for a code (a server that consents at once, like our
// mock, redirects with it; a real one wants a user, so pass --access-token) and exchanges it for tokens.
import { buildAuthorizeUrl, exchangeCode, verifyState } from '@mall-api/auth';

/** A registered app and where its authorization server is. */
export interface TokenFlowOptions {
  /** The base URL of the mall's OAuth server (the admin API's host). */
  readonly authBaseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** A redirect URI registered for the app. */
  readonly redirectUri: string;
  readonly scopes: readonly string[];
}

/** Obtains an access token for `scopes`; throws when the server does not consent without a user. */
export async function obtainAccessToken(options: TokenFlowOptions): Promise<string> {
  const { url, state } = buildAuthorizeUrl({
    mallBaseUrl: options.authBaseUrl,
    clientId: options.clientId,
    redirectUri: options.redirectUri,
    scopes: options.scopes,
  });
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  const redirect = location ? new URL(location, url) : undefined;
  const code = redirect?.searchParams.get('code');
  if (!redirect || !code) {
    throw new Error(
      `the authorize endpoint answered ${response.status} without a code: it wants a user to consent; pass --access-token instead`,
    );
  }
  verifyState(state, redirect.searchParams.get('state'));
  const tokens = await exchangeCode({
    mallBaseUrl: options.authBaseUrl,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    code,
    redirectUri: options.redirectUri,
  });
  return tokens.accessToken;
}
