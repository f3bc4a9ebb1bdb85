// The OAuth 2.0 flow end to end over HTTP against the admin mock, with @mall-api/auth as the app:
// single-use and expiring codes, refresh-token rotation, a mall's reset revoking its tokens, one
// refresh for many concurrent callers, and no token or secret in the mock's log. Several processes sharing a Redis store are in
// oauth-flow.int.test.ts.
import { createHash, randomBytes } from 'node:crypto';
import {
  createMemoryTokenStore,
  createTokenManager,
  OAuthError,
  ReauthorizationRequiredError,
} from '@mall-api/auth';
import { apiLimits, createServerLimiter } from '@mall-api/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMockServer } from '../server/mock-server.js';
import { demoApp, type OAuthAppDriver, oauthAppDriver, redirectUri } from '../testing/oauth-app.js';
import { demoOAuthApp, demoOAuthClient } from './demo-credentials.js';
import { createOAuthAuthority } from './oauth-authority.js';
import { platformOAuthSettings } from './platform-oauth.js';

const settings = await platformOAuthSettings();

let now = Date.now();
const clock = () => now;
const authority = createOAuthAuthority({ apps: [demoOAuthApp(settings)], settings, clock });
const logLines: string[] = [];
const unlimited = {
  ...apiLimits.analytics,
  policy: { kind: 'token-bucket', capacity: 1e9, refillIntervalMs: 1 },
} as const;
let admin: RunningMock;
let analytics: RunningMock;
let oauth: OAuthAppDriver;

beforeAll(async () => {
  admin = await startMockServer({ api: 'admin', port: 0, authority, log: (line) => logLines.push(line) });
  oauth = oauthAppDriver(admin.url);
  analytics = await startMockServer({
    api: 'analytics',
    port: 0,
    authority,
    limiter: createServerLimiter({ api: unlimited }),
    log: (line) => logLines.push(line),
  });
});
afterAll(async () => {
  await admin.close();
  await analytics.close();
});

describe('authorization codes over HTTP', () => {
  it('exchanges a code once; reusing it is invalid_grant', async () => {
    const code = await oauth.authorizeCode();
    const tokens = await oauth.exchange(code);
    expect(tokens.mallId).toBe('demomall');
    expect(tokens.scopes).toEqual(['mall.read_category', 'mall.analytics']);
    await expect(oauth.exchange(code)).rejects.toBeInstanceOf(ReauthorizationRequiredError);
  });

  it('rejects a code used after one minute', async () => {
    const code = await oauth.authorizeCode();
    now += 60_000;
    await expect(oauth.exchange(code)).rejects.toMatchObject({ oauthError: 'invalid_grant' });
  });

  it('refuses an unknown client and an unregistered redirect URI', async () => {
    const base = { response_type: 'code', scope: 'mall.read_category', state: 's' };
    const unknown = await fetch(
      `${admin.url}/api/v2/oauth/authorize?${new URLSearchParams({ ...base, client_id: 'nobody', redirect_uri: redirectUri })}`,
      { redirect: 'manual' },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
    expect(await unknown.json()).toMatchObject({ error: 'invalid_request' });
    const badRedirect = await fetch(
      `${admin.url}/api/v2/oauth/authorize?${new URLSearchParams({ ...base, client_id: demoApp.clientId, redirect_uri: 'https://evil.example/cb' })}`,
      { redirect: 'manual' },
    );
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.headers.get('location')).toBeNull();
  });
});

describe('PKCE over HTTP', () => {
  const basic = `Basic ${Buffer.from(`${demoApp.clientId}:${demoApp.clientSecret}`).toString('base64')}`;
  const verifier = randomBytes(32).toString('base64url');
  const challengeCode = async () => {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: demoApp.clientId,
      redirect_uri: redirectUri,
      scope: 'mall.read_category',
      state: 'pkce-state',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const response = await fetch(`${admin.url}/api/v2/oauth/authorize?${query}`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location') ?? '').searchParams.get('code') ?? '';
  };
  const redeem = (code: string, codeVerifier: string) =>
    fetch(`${admin.url}/api/v2/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      }),
    });

  it('issues tokens for a code whose challenge the code_verifier matches', async () => {
    const response = await redeem(await challengeCode(), verifier);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ access_token: expect.any(String) });
  });

  it('answers a wrong code_verifier with 400 invalid_grant in the OAuth error format', async () => {
    const response = await redeem(await challengeCode(), randomBytes(32).toString('base64url'));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringContaining('code_verifier'),
    });
  });
});

describe('token endpoint input', () => {
  it('answers an oversized form with 400 invalid_request, not a server error', async () => {
    const response = await fetch(`${admin.url}/api/v2/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${demoApp.clientId}:${demoApp.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `grant_type=authorization_code&code=${'x'.repeat(100_000)}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('refresh-token rotation over HTTP', () => {
  it('returns a new refresh token and makes the old one fail', async () => {
    const first = await oauth.exchange(await oauth.authorizeCode());
    const second = await oauth.refresh(first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessTokenExpiresAt.getTime() - now).toBe(2 * 3600_000);
    const reuse = oauth.refresh(first.refreshToken);
    await expect(reuse).rejects.toBeInstanceOf(OAuthError);
    await expect(reuse).rejects.toMatchObject({ code: 'reauthorization_required' });
    expect((await oauth.refresh(second.refreshToken)).accessToken).not.toBe(second.accessToken);
  });
});

describe('a reset over HTTP', () => {
  it("revokes the mall's access and refresh tokens", async () => {
    const tokens = await oauth.exchange(await oauth.authorizeCode());
    const report = () =>
      fetch(`${analytics.url}/visitors/view?mall_id=demomall&start_date=2026-10-01&end_date=2026-10-02`, {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
    expect((await report()).status).toBe(200);
    const reset = await fetch(`${admin.url}/__mock/malls/demomall/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(reset.status).toBe(200);
    const refused = await report();
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: expect.any(String) } });
    await expect(oauth.refresh(tokens.refreshToken)).rejects.toMatchObject({
      code: 'reauthorization_required',
    });
    const fresh = await oauth.exchange(await oauth.authorizeCode());
    expect(fresh.accessToken).not.toBe(tokens.accessToken);
  });
});

describe('token manager against the mocks', () => {
  it('refreshes exactly once for 50 concurrent requests made with an expired token', async () => {
    const { createAnalyticsClientForTest } = await import('../testing/analytics-caller.js');
    const store = createMemoryTokenStore();
    await store.set('demomall', await oauth.exchange(await oauth.authorizeCode()));
    now += 2 * 3600_000 + 1;
    let refreshes = 0;
    const manager = createTokenManager({
      mallId: 'demomall',
      store,
      clock,
      refresh: (token) => {
        refreshes++;
        return oauth.refresh(token);
      },
    });
    const call = createAnalyticsClientForTest(analytics.url, manager);
    const statuses = await Promise.all(Array.from({ length: 50 }, () => call()));
    expect(statuses).toEqual(Array.from({ length: 50 }, () => 200));
    expect(refreshes).toBe(1);
  });

  it('refreshes once on a 401 and resends, when the server rejects a token the client thought valid', async () => {
    const { createAnalyticsClientForTest } = await import('../testing/analytics-caller.js');
    const store = createMemoryTokenStore();
    const tokens = await oauth.exchange(await oauth.authorizeCode());
    // The client believes the token lives for another hour; the server already expired it.
    await store.set('demomall', { ...tokens, accessTokenExpiresAt: new Date(now + 3 * 3600_000) });
    now += 2 * 3600_000;
    let refreshes = 0;
    const manager = createTokenManager({
      mallId: 'demomall',
      store,
      clock,
      refresh: (token) => {
        refreshes++;
        return oauth.refresh(token);
      },
    });
    expect(await createAnalyticsClientForTest(analytics.url, manager)()).toBe(200);
    expect(refreshes).toBe(1);
  });
});

describe('secrets stay out of logs', () => {
  it('the mock logs one line per request and never a token, code or secret', async () => {
    const code = await oauth.authorizeCode();
    const tokens = await oauth.exchange(code);
    await oauth.refresh(tokens.refreshToken);
    await fetch(`${analytics.url}/visitors/view?mall_id=demomall&start_date=2026-10-01&end_date=2026-10-02`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    const log = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(3);
    for (const secret of [code, tokens.accessToken, tokens.refreshToken, demoOAuthClient.clientSecret]) {
      expect(log).not.toContain(secret);
    }
  });
});
