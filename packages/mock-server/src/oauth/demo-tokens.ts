// Obtains tokens from an in-process OAuth authority the way the demo app would (authorize, then
// exchange the code), without a browser or HTTP: for tests and contract runs that start the mocks
// themselves, over any authority (its tokens in memory or in Redis). Apps talking to a running
// mock use the real endpoints (see `mall-api-auth login`).

import type { TokenResponseBody } from './authority-state.js';
import { demoOAuthClient } from './demo-credentials.js';
import type { OAuthAuthority } from './oauth-authority.js';

/** Runs the demo app's authorization-code flow against `authority` for `scopes` on `mallId`. */
export async function issueDemoTokens(
  authority: OAuthAuthority,
  scopes: readonly string[],
  mallId = 'demomall',
): Promise<TokenResponseBody> {
  const redirectUri = 'http://127.0.0.1:8900/callback';
  const outcome = await authority.authorize({
    mallId,
    responseType: 'code',
    clientId: demoOAuthClient.clientId,
    redirectUri,
    scope: scopes.join(','),
    state: 'test',
  });
  if (!outcome.ok) throw new Error(`authorize failed: ${outcome.failure.description}`);
  const code = new URL(outcome.location).searchParams.get('code');
  const tokens = await authority.exchangeCode(
    { clientId: demoOAuthClient.clientId, clientSecret: demoOAuthClient.clientSecret },
    code,
    redirectUri,
  );
  if ('error' in tokens) throw new Error(`token exchange failed: ${tokens.description}`);
  return tokens;
}
