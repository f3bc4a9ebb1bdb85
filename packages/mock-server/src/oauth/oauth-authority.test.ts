// The mock authorization server's rules, in simulated time: codes are single-use and live one
// minute, access tokens two hours, refresh tokens two weeks and rotate on use; unknown clients
// and redirect URIs are refused; the analytics scope is listed as the platform lists it.
import { parsePlatformDateTime } from '@mall-api/auth';
import { describe, expect, it } from 'vitest';
import type { TokenResponseBody } from './authority-state.js';
import { demoOAuthApp, demoOAuthClient } from './demo-credentials.js';
import { createOAuthAuthority } from './oauth-authority.js';
import { platformOAuthSettings } from './platform-oauth.js';

const oauth = await platformOAuthSettings();

const client = { clientId: demoOAuthClient.clientId, clientSecret: demoOAuthClient.clientSecret };
const redirectUri = 'http://127.0.0.1:53682/callback';

function setup() {
  let now = Date.UTC(2026, 10, 1, 0, 0, 0);
  const authority = createOAuthAuthority({ apps: [demoOAuthApp(oauth)], settings: oauth, clock: () => now });
  const authorize = (overrides: Partial<Parameters<typeof authority.authorize>[0]> = {}) =>
    authority.authorize({
      mallId: 'demomall',
      responseType: 'code',
      clientId: client.clientId,
      redirectUri,
      scope: 'mall.read_category,mall.read_analytics',
      state: 'xyz-state',
      ...overrides,
    });
  const codeFrom = (location: string) => new URL(location).searchParams.get('code') ?? '';
  return { authority, authorize, codeFrom, advance: (ms: number) => (now += ms), now: () => now };
}

const isTokens = (value: unknown): value is TokenResponseBody =>
  typeof value === 'object' && value !== null && 'access_token' in value;

describe('authorization codes', () => {
  it('redirects to the registered URI with a code and the unchanged state', async () => {
    const { authorize } = setup();
    const outcome = await authorize();
    expect(outcome.ok).toBe(true);
    const location = new URL(outcome.ok ? outcome.location : '');
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe('xyz-state');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{16,}$/);
  });

  it('refuses an unknown client and an unregistered redirect URI without redirecting', async () => {
    const { authorize } = setup();
    expect(await authorize({ clientId: 'nobody' })).toMatchObject({ ok: false, redirectable: false });
    expect(await authorize({ redirectUri: 'https://evil.example/callback' })).toMatchObject({
      ok: false,
      redirectable: false,
    });
  });

  it('redirects the demo app to the docs site’s redirect page on a loopback port, nowhere else', async () => {
    const { authorize } = setup();
    const docsPage = 'http://127.0.0.1:41234/oauth/callback.html';
    const outcome = await authorize({ redirectUri: docsPage });
    expect(outcome.ok && `${new URL(outcome.location).origin}${new URL(outcome.location).pathname}`).toBe(
      docsPage,
    );
    for (const redirectUri of [
      'https://docs.example/oauth/callback.html',
      'http://127.0.0.1:41234/docs/oauth/callback.html',
      'http://127.0.0.1:41234/oauth/other.html',
    ]) {
      expect(await authorize({ redirectUri })).toMatchObject({ ok: false, redirectable: false });
    }
  });

  it('redirects with an error for an unknown scope', async () => {
    const { authorize } = setup();
    const outcome = await authorize({ scope: 'mall.delete_everything' });
    expect(outcome.ok && new URL(outcome.location).searchParams.get('error')).toBe('invalid_scope');
  });

  it('exchanges a code once; a second use is invalid_grant', async () => {
    const { authority, authorize, codeFrom } = setup();
    const outcome = await authorize();
    const code = codeFrom(outcome.ok ? outcome.location : '');
    expect(isTokens(await authority.exchangeCode(client, code, redirectUri))).toBe(true);
    expect(await authority.exchangeCode(client, code, redirectUri)).toMatchObject({
      status: 400,
      error: 'invalid_grant',
    });
  });

  it('expires a code one minute after issue', async () => {
    const { authority, authorize, codeFrom, advance } = setup();
    const first = await authorize();
    const second = await authorize();
    advance(59_999);
    expect(
      isTokens(await authority.exchangeCode(client, codeFrom(first.ok ? first.location : ''), redirectUri)),
    ).toBe(true);
    advance(1);
    expect(
      await authority.exchangeCode(client, codeFrom(second.ok ? second.location : ''), redirectUri),
    ).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('requires the client secret and the same redirect URI', async () => {
    const { authority, authorize, codeFrom } = setup();
    const code = codeFrom(((await authorize()) as { location: string }).location);
    expect(
      await authority.exchangeCode({ ...client, clientSecret: 'wrong' }, code, redirectUri),
    ).toMatchObject({
      status: 401,
      error: 'invalid_client',
    });
    const other = codeFrom(((await authorize()) as { location: string }).location);
    expect(await authority.exchangeCode(client, other, 'http://127.0.0.1:1/other')).toMatchObject({
      error: 'invalid_grant',
    });
  });
});

describe('PKCE (RFC 7636, S256)', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
  const pkceCode = async (context: ReturnType<typeof setup>) =>
    context.codeFrom(
      (
        (await context.authorize({ codeChallenge: challenge, codeChallengeMethod: 'S256' })) as {
          location: string;
        }
      ).location,
    );

  it('redeems a code issued with a challenge for the matching verifier', async () => {
    const context = setup();
    expect(
      isTokens(await context.authority.exchangeCode(client, await pkceCode(context), redirectUri, verifier)),
    ).toBe(true);
  });

  it('answers a wrong or missing verifier with invalid_grant, and the code is spent', async () => {
    const context = setup();
    const code = await pkceCode(context);
    expect(
      await context.authority.exchangeCode(client, code, redirectUri, `${verifier.slice(0, -1)}Y`),
    ).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      description: expect.stringMatching(/code_verifier/),
    });
    expect(await context.authority.exchangeCode(client, code, redirectUri, verifier)).toMatchObject({
      error: 'invalid_grant',
    });
    expect(await context.authority.exchangeCode(client, await pkceCode(context), redirectUri)).toMatchObject({
      status: 400,
      error: 'invalid_grant',
    });
  });

  it('refuses a verifier for a code issued without a challenge (no downgrade)', async () => {
    const context = setup();
    const code = context.codeFrom(((await context.authorize()) as { location: string }).location);
    expect(await context.authority.exchangeCode(client, code, redirectUri, verifier)).toMatchObject({
      status: 400,
      error: 'invalid_grant',
    });
  });

  it('sends the plain method back to the app as invalid_request, with the state and no code', async () => {
    const { authorize } = setup();
    const outcome = await authorize({ codeChallenge: verifier, codeChallengeMethod: 'plain' });
    const location = new URL(outcome.ok ? outcome.location : 'http://x/');
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('xyz-state');
    expect(location.searchParams.get('code')).toBeNull();
  });
});

describe('tokens', () => {
  const issue = async () => {
    const context = setup();
    const code = context.codeFrom(((await context.authorize()) as { location: string }).location);
    const tokens = (await context.authority.exchangeCode(client, code, redirectUri)) as TokenResponseBody;
    return { ...context, tokens };
  };

  it('answers with every field of the seed, datetimes without a zone in +09:00', async () => {
    const { tokens, now } = await issue();
    expect(
      Object.keys(tokens)
        .filter((key) => key !== 'shop_no' && key !== 'token_type')
        .sort(),
    ).toEqual(
      [
        'access_token',
        'client_id',
        'expires_at',
        'issued_at',
        'mall_id',
        'refresh_token',
        'refresh_token_expires_at',
        'scopes',
        'user_id',
      ].sort(),
    );
    expect(tokens.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(parsePlatformDateTime(tokens.issued_at)?.getTime()).toBe(now());
    expect(parsePlatformDateTime(tokens.expires_at)?.getTime()).toBe(now() + 2 * 3600_000);
    expect(parsePlatformDateTime(tokens.refresh_token_expires_at)?.getTime()).toBe(now() + 14 * 86_400_000);
    expect(tokens.mall_id).toBe('demomall');
  });

  it('lists the analytics scope as mall.analytics', async () => {
    expect((await issue()).tokens.scopes).toEqual(['mall.read_category', 'mall.analytics']);
  });

  it('accepts an access token for two hours', async () => {
    const { authority, tokens, advance } = await issue();
    expect(await authority.verifyAccessToken(tokens.access_token)).toMatchObject({
      ok: true,
      grant: { mallId: 'demomall' },
    });
    advance(2 * 3600_000 - 1);
    expect((await authority.verifyAccessToken(tokens.access_token)).ok).toBe(true);
    advance(1);
    expect(await authority.verifyAccessToken(tokens.access_token)).toEqual({ ok: false, reason: 'expired' });
    expect(await authority.verifyAccessToken('made-up')).toEqual({ ok: false, reason: 'unknown' });
  });

  it('rotates the refresh token: the new one works, the old one is invalid_grant', async () => {
    const { authority, tokens } = await issue();
    const renewed = (await authority.refresh(client, tokens.refresh_token)) as TokenResponseBody;
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await authority.verifyAccessToken(renewed.access_token)).ok).toBe(true);
    expect(await authority.refresh(client, tokens.refresh_token)).toMatchObject({
      status: 400,
      error: 'invalid_grant',
    });
    expect(isTokens(await authority.refresh(client, renewed.refresh_token))).toBe(true);
  });

  it('refuses a refresh token after two weeks', async () => {
    const { authority, tokens, advance } = await issue();
    advance(14 * 86_400_000);
    expect(await authority.refresh(client, tokens.refresh_token)).toMatchObject({ error: 'invalid_grant' });
  });
});
