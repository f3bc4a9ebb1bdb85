// Obtains tokens from an in-process OAuth authority the way the demo app would (authorize, then
// exchange the code), without a browser or HTTP: for tests and contract runs that start the mocks
// themselves. `issueDemoTokens` answers at once and serves an authority over memory;
// `requestDemoTokens` serves any, Redis-backed ones too. Apps talking to a running mock use the
// real endpoints (see `mall-api-auth login`).

import { type Awaitable, andThen } from '@mall-api/mall-state';
import { demoOAuthClient } from '../demo-credentials.js';
import type { OAuthAuthority, TokenResponseBody } from './oauth-authority.js';

function demoFlow(
  authority: OAuthAuthority,
  scopes: readonly string[],
  mallId: string,
): Awaitable<TokenResponseBody> {
  const redirectUri = 'http://127.0.0.1:8900/callback';
  const authorized = authority.authorize({
    mallId,
    responseType: 'code',
    clientId: demoOAuthClient.clientId,
    redirectUri,
    scope: scopes.join(','),
    state: 'test',
  });
  return andThen(authorized, (outcome) => {
    if (!outcome.ok) throw new Error(`authorize failed: ${outcome.failure.description}`);
    const code = new URL(outcome.location).searchParams.get('code');
    const exchanged = authority.exchangeCode(
      { clientId: demoOAuthClient.clientId, clientSecret: demoOAuthClient.clientSecret },
      code,
      redirectUri,
    );
    return andThen(exchanged, (tokens) => {
      if ('error' in tokens) throw new Error(`token exchange failed: ${tokens.description}`);
      return tokens;
    });
  });
}

/**
 * Runs the demo app's authorization-code flow against `authority` for `scopes` on `mallId`.
 *
 * @throws when the authority keeps its tokens in a shared store (use {@link requestDemoTokens}).
 */
export function issueDemoTokens(
  authority: OAuthAuthority,
  scopes: readonly string[],
  mallId = 'demomall',
): TokenResponseBody {
  const tokens = demoFlow(authority, scopes, mallId);
  if (tokens instanceof Promise) {
    tokens.catch(() => {});
    throw new Error('this authority keeps its tokens in a shared store: use requestDemoTokens');
  }
  return tokens;
}

/** Runs the demo app's authorization-code flow against any authority, in memory or shared. */
export async function requestDemoTokens(
  authority: OAuthAuthority,
  scopes: readonly string[],
  mallId = 'demomall',
): Promise<TokenResponseBody> {
  return demoFlow(authority, scopes, mallId);
}
