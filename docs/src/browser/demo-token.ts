// The console's "Get a demo token": runs the mock OAuth server's authorization-code flow for the
// scope an operation needs, as the demo app. The mock consents at once and answers the authorize
// step with a redirect whose Location carries the code; a page cannot read a cross-origin
// Location, so the docs server makes that one request (`/console/authorize`, loopback mocks only,
// see build/serve.mjs) and hands back the Location. The page checks the state and exchanges the
// code itself. Tokens are kept in this tab's sessionStorage only.
import type { ConsoleOAuth } from './console-model.js';

const storageKey = (server: string, scope: string) => `mall-api-console:token:${server}:${scope}`;

/** The token kept in this tab for `scope` from the OAuth server at `server`, if any. */
export const storedToken = (server: string, scope: string): string =>
  sessionStorage.getItem(storageKey(server, scope)) ?? '';

/** Keeps `token` for `scope` from `server` in this tab's sessionStorage. */
export const storeToken = (server: string, scope: string, token: string): void =>
  sessionStorage.setItem(storageKey(server, scope), token);

/** An error of the flow, with what the server said (never the token). */
export class DemoTokenError extends Error {
  override name = 'DemoTokenError';
}

async function json(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new DemoTokenError(`unexpected answer (HTTP ${response.status})`);
  }
}

/**
 * Obtains an access token for `scope` from the mock OAuth server at `server` and keeps it for
 * this tab. `siteRoot` is where the docs server answers `console/authorize`.
 */
export async function fetchDemoToken(
  oauth: ConsoleOAuth,
  server: string,
  scope: string,
  siteRoot: URL,
): Promise<string> {
  const state = crypto.randomUUID();
  const authorize = new URL(oauth.authorizePath, server);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: oauth.clientId,
    state,
    redirect_uri: oauth.redirectUri,
    scope,
  }).toString();
  const proxy = new URL('console/authorize', siteRoot);
  proxy.searchParams.set('url', authorize.href);
  const step = await json(await fetch(proxy));
  if (typeof step.location !== 'string') {
    throw new DemoTokenError(`authorize: ${String(step.error_description ?? step.error ?? 'no redirect')}`);
  }
  const redirect = new URL(step.location);
  if (redirect.searchParams.get('state') !== state)
    throw new DemoTokenError('authorize: the state does not match');
  const code = redirect.searchParams.get('code');
  if (!code) {
    throw new DemoTokenError(`authorize: ${redirect.searchParams.get('error_description') ?? 'no code'}`);
  }
  const answer = await fetch(new URL(oauth.tokenPath, server), {
    method: 'POST',
    headers: {
      Authorization: `Basic ${btoa(`${oauth.clientId}:${oauth.clientSecret}`)}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: oauth.redirectUri }),
  });
  const tokens = await json(answer);
  if (typeof tokens.access_token !== 'string') {
    throw new DemoTokenError(`token: ${String(tokens.error_description ?? tokens.error ?? answer.status)}`);
  }
  storeToken(server, scope, tokens.access_token);
  return tokens.access_token;
}
