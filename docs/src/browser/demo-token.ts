// The console's "Get a demo token": the standard OAuth 2.0 authorization-code flow, as the demo
// app, for the scope an operation needs, against the OAuth server the reader picked, with PKCE
// (RFC 7636, S256: a page is a public client, so the code is bound to a verifier only this page
// knows; the mock checks it, see packages/mock-server/src/oauth/pkce.ts). The authorize
// URL opens in a small window; the server (the mock consents at once) redirects it to the site's
// own redirect page (`oauth/callback.html`, shipped in docs/dist), which hands the query back to
// this page with postMessage and closes; this page checks the state and exchanges the code at the
// token URL itself. Works from any static host: nothing but files is asked of the docs server.
// Tokens are kept in this tab's sessionStorage only.
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

/** What the redirect page posts back: the query of the redirect (`?code=…&state=…`). */
export interface RedirectMessage {
  source: 'mall-api-oauth';
  query: string;
}

async function json(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new DemoTokenError(`unexpected answer (HTTP ${response.status})`);
  }
}

/** Waits for the redirect page in `popup` to post the redirect's query; fails if it is closed first. */
function redirectQuery(popup: Window): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      window.removeEventListener('message', listener);
      clearInterval(watch);
    };
    const listener = (event: MessageEvent) => {
      const data = event.data as Partial<RedirectMessage> | undefined;
      if (
        event.origin !== window.location.origin ||
        event.source !== popup ||
        data?.source !== 'mall-api-oauth'
      )
        return;
      stop();
      resolve(new URLSearchParams(data.query ?? ''));
    };
    const watch = setInterval(() => {
      if (!popup.closed) return;
      // A message posted just before the window closed is still delivered first.
      setTimeout(() => {
        stop();
        reject(new DemoTokenError('authorize: the sign-in window closed without an answer'));
      }, 200);
    }, 400);
    window.addEventListener('message', listener);
  });
}

/** A fresh PKCE verifier (32 random bytes, base64url: 43 characters) and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const base64url = (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

/**
 * Obtains an access token for `scope` from the OAuth server at `server` and keeps it for this
 * tab. `siteRoot` is where the site's redirect page lives. Call it from a click: it opens a window.
 */
export async function fetchDemoToken(
  oauth: ConsoleOAuth,
  server: string,
  scope: string,
  siteRoot: URL,
): Promise<string> {
  const state = crypto.randomUUID();
  const pkce = await pkcePair();
  const redirectUri = new URL(oauth.redirectPage, siteRoot).href;
  const authorize = new URL(oauth.authorizePath, server);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: oauth.clientId,
    state,
    redirect_uri: redirectUri,
    scope,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  }).toString();
  const popup = window.open(authorize, 'mall-api-oauth', 'popup,width=520,height=640');
  if (!popup) throw new DemoTokenError('authorize: the browser blocked the sign-in window');
  const redirect = await redirectQuery(popup);
  if (redirect.get('state') !== state) throw new DemoTokenError('authorize: the state does not match');
  const code = redirect.get('code');
  if (!code) throw new DemoTokenError(`authorize: ${redirect.get('error_description') ?? 'no code'}`);
  const answer = await fetch(new URL(oauth.tokenPath, server), {
    method: 'POST',
    headers: {
      Authorization: `Basic ${btoa(`${oauth.clientId}:${oauth.clientSecret}`)}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: pkce.verifier,
    }),
  });
  const tokens = await json(answer);
  if (typeof tokens.access_token !== 'string') {
    throw new DemoTokenError(`token: ${String(tokens.error_description ?? tokens.error ?? answer.status)}`);
  }
  storeToken(server, scope, tokens.access_token);
  return tokens.access_token;
}
