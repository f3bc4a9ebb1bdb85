// The analytics mock over real HTTP: bearer tokens from the shared OAuth authority (401 without
// one), the mall.read_analytics scope (403), HTTPS only (403 for X-Forwarded-Proto: http), 422
// naming the parameter for each bad input, and the token bucket (burst of 10, then one call per
// two seconds) observed in simulated time.
import { createServerLimiter } from '@mall-api/rate-limit';
import { loadSpec } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoOAuthApp } from '../oauth/demo-credentials.js';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { createOAuthAuthority } from '../oauth/oauth-authority.js';
import { platformOAuthSettings } from '../oauth/platform-oauth.js';
import { type RunningMock, startMockServer } from './mock-server.js';

const oauth = await platformOAuthSettings();

const authority = createOAuthAuthority({ apps: [demoOAuthApp(oauth)], settings: oauth });
const range = 'mall_id=demomall&start_date=2026-10-01&end_date=2026-10-31';
let mock: RunningMock;
let mallCounter = 0;

interface Body {
  error: {
    code: string;
    message: string;
    more_info: { required_scope?: string; violations?: { name: string }[] };
  };
  [key: string]: unknown;
}

/** A token for a fresh mall, so every call draws on its own bucket. */
const freshToken = async (scopes: readonly string[] = ['mall.read_analytics']) =>
  (await issueDemoTokens(authority, scopes, `mall${++mallCounter}`)).access_token;

const call = async (
  path: string,
  options: { headers?: Record<string, string>; authorization?: string | null } = {},
) => {
  const authorization =
    options.authorization === undefined ? `Bearer ${await freshToken()}` : options.authorization;
  const response = await fetch(`${mock.url}${path}`, {
    headers: { ...(authorization ? { authorization } : {}), ...options.headers },
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
};

beforeAll(async () => {
  mock = await startMockServer({ api: 'analytics', port: 0, authority });
});
afterAll(async () => {
  await mock.close();
});

describe('analytics mock: access', () => {
  it('answers a valid request with the documented record list and the four X-RateLimit headers', async () => {
    const { status, body, headers } = await call(`/visitors/view?${range}`);
    expect(status).toBe(200);
    expect(Array.isArray(body.view)).toBe(true);
    expect(headers.get('x-ratelimit-remaining')).toBe('9');
    expect(headers.get('x-ratelimit-requested-tokens')).toBe('1');
    expect(headers.get('x-ratelimit-burst-capacity')).toBe('10');
    expect(headers.get('x-ratelimit-replenish-rate')).toBe('0.5');
  });

  it.each([
    ['no token', null],
    ['an unknown token', 'Bearer not-a-real-token'],
    ['Basic credentials', `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`],
  ])('answers 401 with the envelope for %s', async (_case, authorization) => {
    const { status, body } = await call(`/visitors/view?${range}`, { authorization });
    expect(status).toBe(401);
    expect(body.error.code).toBe('unauthorized');
  });

  it('answers 403 naming the scope for a token without mall.read_analytics', async () => {
    const { status, body } = await call(`/visitors/view?${range}`, {
      authorization: `Bearer ${await freshToken(['mall.read_category'])}`,
    });
    expect(status).toBe(403);
    expect(body.error).toMatchObject({
      code: 'forbidden',
      more_info: { required_scope: 'mall.read_analytics' },
    });
  });

  it('answers 403 for a request that came over plain HTTP', async () => {
    const { status, body } = await call(`/visitors/view?${range}`, {
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(status).toBe(403);
    expect(body.error.message).toContain('HTTPS');
  });

  it('serves every endpoint of the spec', async () => {
    const { document, operations } = await loadSpec('analytics');
    const all = Object.keys(document.paths as object);
    expect(all.length).toBeGreaterThan(1);
    // One GET per path, so calling every path calls every operation.
    expect(operations.map((operation) => `${operation.method} ${operation.pathTemplate}`)).toEqual(
      all.map((path) => `get ${path}`),
    );
    for (const path of all) expect((await call(`${path}?${range}`)).status, path).toBe(200);
  });
});

describe('analytics mock: bad input → 422 naming the parameter', () => {
  it.each([
    ['missing mall_id', '/visitors/view?start_date=2026-10-01&end_date=2026-10-31', 'mall_id'],
    ['missing start_date', '/visitors/view?mall_id=demomall&end_date=2026-10-31', 'start_date'],
    ['missing end_date', '/visitors/view?mall_id=demomall&start_date=2026-10-01', 'end_date'],
    [
      'a bad date format',
      '/visitors/view?mall_id=demomall&start_date=2026/10/01&end_date=2026-10-31',
      'start_date',
    ],
    [
      'an end date before the start date',
      '/visitors/view?mall_id=demomall&start_date=2026-10-31&end_date=2026-10-01',
      'end_date',
    ],
    ['a limit under 50', `/pages/view?${range}&limit=49`, 'limit'],
    ['a limit over 1000', `/pages/view?${range}&limit=1001`, 'limit'],
    ['an unknown sort key', `/pages/view?${range}&sort=hour`, 'sort'],
    ['an unknown device type', `/pages/view?${range}&device_type=tablet`, 'device_type'],
  ])('%s', async (_case, path, parameter) => {
    const { status, body } = await call(path);
    expect(status).toBe(422);
    expect(body.error.code).toBe('invalid_parameter');
    expect(body.error.message).toContain(parameter);
    expect(body.error.more_info.violations?.map((v) => v.name)).toContain(parameter);
  });
});

describe('analytics mock: token bucket', () => {
  it('admits a burst of 10, then one call per two seconds', async () => {
    let now = Date.UTC(2026, 10, 1);
    const limited = await startMockServer({
      api: 'analytics',
      port: 0,
      authority,
      limiter: createServerLimiter({ api: 'analytics', clock: () => now }),
    });
    try {
      const token = (await issueDemoTokens(authority, ['mall.read_analytics'], 'bucketmall')).access_token;
      const get = () =>
        fetch(`${limited.url}/visitors/view?${range}`, { headers: { authorization: `Bearer ${token}` } });
      const burst: number[] = [];
      for (let i = 0; i < 11; i++) burst.push((await get()).status);
      expect(burst.slice(0, 10).every((s) => s === 200)).toBe(true);
      expect(burst[10]).toBe(429);
      now += 1_999;
      const early = await get();
      expect(early.status).toBe(429);
      expect(early.headers.get('retry-after')).toBe('1');
      expect(early.headers.get('x-ratelimit-remaining')).toBe('0');
      now += 1;
      expect((await get()).status).toBe(200);
      expect((await get()).status).toBe(429);
      now += 2_000;
      expect((await get()).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
