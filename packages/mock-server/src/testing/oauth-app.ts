// Test support: the demo OAuth app as a test drives it against a running admin mock — authorize
// like a browser (following no redirect) and take the code from the redirect, exchange it, and
// refresh with @mall-api/auth's client functions. Not part of the package's API.
import { exchangeCode, refreshToken, type TokenSet } from '@mall-api/auth';
import { expect } from 'vitest';
import { demoOAuthClient } from '../oauth/demo-credentials.js';

/** The demo app's credentials. */
export const demoApp = { clientId: demoOAuthClient.clientId, clientSecret: demoOAuthClient.clientSecret };

/** The redirect URI the tests register and send. */
export const redirectUri = 'http://127.0.0.1:8765/callback';

/** The demo app's authorize / exchange / refresh calls against the admin mock at `adminUrl`. */
export interface OAuthAppDriver {
  /** Authorizes over HTTP like a browser would and returns the code from the redirect. */
  authorizeCode(scopes?: string, state?: string): Promise<string>;
  exchange(code: string): Promise<TokenSet>;
  refresh(refreshToken: string): Promise<TokenSet>;
}

/** Drives the demo app against the admin mock at `adminUrl`. */
export function oauthAppDriver(adminUrl: string): OAuthAppDriver {
  return {
    async authorizeCode(scopes = 'mall.read_category,mall.read_analytics', state = 'state-123') {
      const url = new URL('/api/v2/oauth/authorize', adminUrl);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: demoApp.clientId,
        redirect_uri: redirectUri,
        scope: scopes,
        state,
      }).toString();
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') ?? '');
      expect(location.searchParams.get('state')).toBe(state);
      return location.searchParams.get('code') ?? '';
    },
    exchange: (code) => exchangeCode({ mallBaseUrl: adminUrl, ...demoApp, code, redirectUri }),
    refresh: (token) => refreshToken({ mallBaseUrl: adminUrl, ...demoApp, refreshToken: token }),
  };
}
