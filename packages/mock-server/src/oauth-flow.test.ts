// The OAuth 2.0 flow end to end over HTTP against the admin mock, with @mall-api/auth as the app:
// single-use and expiring codes, refresh-token rotation, one refresh for many concurrent callers
// and for several processes sharing a Redis store, nothing lost when a process dies right after
// saving rotated tokens, and no token or secret in the mock's log.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  createMemoryTokenStore,
  createTokenManager,
  exchangeCode,
  OAuthError,
  ReauthorizationRequiredError,
  refreshToken,
  type TokenSet,
} from '@mall-api/auth';
import { createRedisTokenStore } from '@mall-api/auth/redis';
import { apiLimits, createServerLimiter } from '@mall-api/rate-limit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedisServer } from '../../../tools/src/testing/redis-server.js';
import { demoOAuthApp } from './demo-credentials.js';
import { type RunningMock, startMockServer } from './mock-server.js';
import { createOAuthAuthority } from './oauth/oauth-authority.js';

const run = promisify(execFile);
const app = { clientId: demoOAuthApp.clientId, clientSecret: demoOAuthApp.clientSecret };
const redirectUri = 'http://127.0.0.1:8765/callback';
// Simulated time starts at real time: the worker processes below use the real clock.
let now = Date.now();
const clock = () => now;
const authority = createOAuthAuthority({ apps: [demoOAuthApp], clock });
const logLines: string[] = [];
const unlimited = {
  ...apiLimits.analytics,
  policy: { kind: 'token-bucket', capacity: 1e9, refillIntervalMs: 1 },
} as const;
let admin: RunningMock;
let analytics: RunningMock;

beforeAll(async () => {
  admin = await startMockServer({ api: 'admin', port: 0, authority, log: (line) => logLines.push(line) });
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

/** Authorizes over HTTP like a browser would and returns the code from the redirect. */
async function authorizeCode(
  scopes = 'mall.read_category,mall.read_analytics',
  state = 'state-123',
): Promise<string> {
  const url = new URL('/api/v2/oauth/authorize', admin.url);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: redirectUri,
    scope: scopes,
    state,
  }).toString();
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(location.searchParams.get('state')).toBe(state);
  return location.searchParams.get('code') ?? '';
}

const exchange = (code: string) => exchangeCode({ mallBaseUrl: admin.url, ...app, code, redirectUri });
const refresh = (token: string) => refreshToken({ mallBaseUrl: admin.url, ...app, refreshToken: token });

describe('authorization codes over HTTP', () => {
  it('exchanges a code once; reusing it is invalid_grant', async () => {
    const code = await authorizeCode();
    const tokens = await exchange(code);
    expect(tokens.mallId).toBe('demomall');
    expect(tokens.scopes).toEqual(['mall.read_category', 'mall.analytics']);
    await expect(exchange(code)).rejects.toBeInstanceOf(ReauthorizationRequiredError);
  });

  it('rejects a code used after one minute', async () => {
    const code = await authorizeCode();
    now += 60_000;
    await expect(exchange(code)).rejects.toMatchObject({ oauthError: 'invalid_grant' });
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
      `${admin.url}/api/v2/oauth/authorize?${new URLSearchParams({ ...base, client_id: app.clientId, redirect_uri: 'https://evil.example/cb' })}`,
      { redirect: 'manual' },
    );
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.headers.get('location')).toBeNull();
  });
});

describe('token endpoint input', () => {
  it('answers an oversized form with 400 invalid_request, not a server error', async () => {
    const response = await fetch(`${admin.url}/api/v2/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
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
    const first = await exchange(await authorizeCode());
    const second = await refresh(first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessTokenExpiresAt.getTime() - now).toBe(2 * 3600_000);
    const reuse = refresh(first.refreshToken);
    await expect(reuse).rejects.toBeInstanceOf(OAuthError);
    await expect(reuse).rejects.toMatchObject({ code: 'reauthorization_required' });
    expect((await refresh(second.refreshToken)).accessToken).not.toBe(second.accessToken);
  });
});

describe('token manager against the mocks', () => {
  it('refreshes exactly once for 50 concurrent requests made with an expired token', async () => {
    const { createAnalyticsClientForTest } = await import('./testing/analytics-caller.js');
    const store = createMemoryTokenStore();
    await store.set('demomall', await exchange(await authorizeCode()));
    now += 2 * 3600_000 + 1;
    let refreshes = 0;
    const manager = createTokenManager({
      mallId: 'demomall',
      store,
      clock,
      refresh: (token) => {
        refreshes++;
        return refresh(token);
      },
    });
    const call = createAnalyticsClientForTest(analytics.url, manager);
    const statuses = await Promise.all(Array.from({ length: 50 }, () => call()));
    expect(statuses).toEqual(Array.from({ length: 50 }, () => 200));
    expect(refreshes).toBe(1);
  });

  it('refreshes once on a 401 and resends, when the server rejects a token the client thought valid', async () => {
    const { createAnalyticsClientForTest } = await import('./testing/analytics-caller.js');
    const store = createMemoryTokenStore();
    const tokens = await exchange(await authorizeCode());
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
        return refresh(token);
      },
    });
    expect(await createAnalyticsClientForTest(analytics.url, manager)()).toBe(200);
    expect(refreshes).toBe(1);
  });
});

describe('several processes sharing a Redis token store', () => {
  let redisServer: TestRedisServer;
  let redis: Redis;
  const worker = join(import.meta.dirname, '..', 'test-fixtures', 'refresh-worker.mjs');
  beforeAll(async () => {
    redisServer = await startRedisServer();
    redis = new Redis(redisServer.url);
  });
  afterAll(async () => {
    redis.disconnect();
    await redisServer.stop();
  });

  /** Stores tokens whose access token the workers will consider expired. */
  async function seedStaleTokens(mallId: string): Promise<TokenSet> {
    const tokens = await exchange(await authorizeCode());
    const stale = { ...tokens, accessTokenExpiresAt: new Date(Date.now() - 1000) };
    await createRedisTokenStore({ redis }).set(mallId, stale);
    return stale;
  }

  it('four processes with an expired token cause exactly one refresh and all use its result', async () => {
    const stale = await seedStaleTokens('demomall');
    const outputs = await Promise.all(
      Array.from({ length: 4 }, () =>
        run(process.execPath, [worker, redisServer.url, admin.url, 'demomall']),
      ),
    );
    const tokens = outputs.map((output) => output.stdout.trim());
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(stale.accessToken);
    // A second refresh would have spent the rotated refresh token; the stored one still works.
    const stored = await createRedisTokenStore({ redis }).get('demomall');
    expect(stored?.accessToken).toBe(tokens[0]);
    await expect(refresh(stored?.refreshToken ?? '')).resolves.toMatchObject({ mallId: 'demomall' });
  });

  it('a process killed right after saving rotated tokens loses nothing', async () => {
    const stale = await seedStaleTokens('demomall');
    const killed = await run(process.execPath, [
      worker,
      redisServer.url,
      admin.url,
      'demomall',
      '--die-after-save',
    ]).then(
      () => 'exited',
      (error: { signal?: string }) => error.signal,
    );
    expect(killed).toBe('SIGKILL');
    const stored = await createRedisTokenStore({ redis }).get('demomall');
    expect(stored?.refreshToken).not.toBe(stale.refreshToken);
    const survivor = await run(process.execPath, [worker, redisServer.url, admin.url, 'demomall']);
    expect(survivor.stdout.trim()).toBe(stored?.accessToken);
  });
});

describe('secrets stay out of logs', () => {
  it('the mock logs one line per request and never a token, code or secret', async () => {
    const code = await authorizeCode();
    const tokens = await exchange(code);
    await refresh(tokens.refreshToken);
    await fetch(`${analytics.url}/visitors/view?mall_id=demomall&start_date=2026-10-01&end_date=2026-10-02`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    const log = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(3);
    for (const secret of [code, tokens.accessToken, tokens.refreshToken, demoOAuthApp.clientSecret]) {
      expect(log).not.toContain(secret);
    }
  });
});
