// The OAuth store at the function, in memory and in Redis alike: a code is taken once, however
// many callers race for it; tokens are found as stored; a refresh token is taken once; revoking a
// mall's grants (its reset) refuses its codes and tokens but no other mall's, and new ones work;
// and the authority over the store refuses a token once its mall's clock has moved past its expiry.

import { createMallClocks, memoryClockOffsets } from '@mall-api/mall-state';
import { redisClockOffsets } from '@mall-api/mall-state/redis';
import { describe, expect, it } from 'vitest';
import { useTestRedis } from '../../../mall-state/src/testing/shared-redis.js';
import { demoOAuthApp } from './demo-credentials.js';
import { issueDemoTokens } from './demo-tokens.js';
import { createOAuthAuthority } from './oauth-authority.js';
import { memoryOAuthStore, type OAuthStore } from './oauth-store.js';
import { platformOAuthSettings } from './platform-oauth.js';
import { redisOAuthStore } from './redis-oauth-store.js';

const oauth = await platformOAuthSettings();

const start = Date.parse('2026-11-24T00:00:00.000Z');
const redis = useTestRedis();
const implementations: [
  string,
  () => Promise<{ store: OAuthStore; clocks: ReturnType<typeof createMallClocks> }>,
][] = [
  [
    'memory',
    async () => {
      const clocks = createMallClocks(() => start, memoryClockOffsets());
      return { store: memoryOAuthStore((mallId) => clocks.now(mallId)), clocks };
    },
  ],
  [
    'redis',
    async () => {
      const shared = await redis.connect();
      const clocks = createMallClocks(() => start, redisClockOffsets(shared));
      return { store: redisOAuthStore(shared, clocks), clocks };
    },
  ],
];

const grant = { clientId: 'demo-app', mallId: 'm', userId: 'u', scopes: ['mall.read_category'] };

describe.each(implementations)('OAuth store (%s)', (_, open) => {
  it('gives a code to exactly one of the callers that take it', async () => {
    const { store } = await open();
    await store.putCode('c1', { ...grant, redirectUri: 'http://127.0.0.1/cb', expiresAt: start + 60_000 });
    const taken = await Promise.all(Array.from({ length: 5 }, () => store.takeCode('c1')));
    expect(taken.filter((record) => record !== undefined)).toEqual([
      { ...grant, redirectUri: 'http://127.0.0.1/cb', expiresAt: start + 60_000 },
    ]);
  });

  it("revokes a mall's codes and tokens, and only that mall's; tokens issued after work", async () => {
    const { store } = await open();
    const other = { ...grant, mallId: 'other' };
    await store.putCode('rc', { ...grant, redirectUri: 'http://127.0.0.1/cb', expiresAt: start + 60_000 });
    await store.putTokens('ra', { ...grant, expiresAt: start + 1_000 }, 'rr', {
      ...grant,
      expiresAt: start + 2_000,
    });
    await store.putTokens('oa', { ...other, expiresAt: start + 1_000 }, 'or', {
      ...other,
      expiresAt: start + 2_000,
    });
    // Read before the reset (a replica remembers what it found): refused all the same after it.
    expect(await store.accessToken('ra')).toEqual({ ...grant, expiresAt: start + 1_000 });
    await store.revokeMall('m');
    expect(await store.accessToken('ra')).toBeUndefined();
    expect(await store.refreshToken('rr')).toBeUndefined();
    expect(await store.takeCode('rc')).toBeUndefined();
    expect(await store.accessToken('oa')).toEqual({ ...other, expiresAt: start + 1_000 });
    expect(await store.refreshToken('or')).toEqual({ ...other, expiresAt: start + 2_000 });
    await store.putTokens('na', { ...grant, expiresAt: start + 1_000 }, 'nr', {
      ...grant,
      expiresAt: start + 2_000,
    });
    expect(await store.accessToken('na')).toEqual({ ...grant, expiresAt: start + 1_000 });
  });

  it('finds tokens as stored and takes a refresh token once', async () => {
    const { store } = await open();
    await store.putTokens('a1', { ...grant, expiresAt: start + 1_000 }, 'r1', {
      ...grant,
      expiresAt: start + 2_000,
    });
    expect(await store.accessToken('a1')).toEqual({ ...grant, expiresAt: start + 1_000 });
    // Found again (a replica remembers it): as stored.
    expect(await store.accessToken('a1')).toEqual({ ...grant, expiresAt: start + 1_000 });
    expect(await store.refreshToken('r1')).toEqual({ ...grant, expiresAt: start + 2_000 });
    expect(await store.accessToken('r1')).toBeUndefined();
    const taken = await Promise.all([store.takeRefreshToken('r1'), store.takeRefreshToken('r1')]);
    expect(taken.sort()).toEqual([false, true]);
    expect(await store.refreshToken('r1')).toBeUndefined();
  });

  it('backs an authority whose tokens expire when their mall’s clock moves past them', async () => {
    const { store, clocks } = await open();
    const authority = createOAuthAuthority({
      apps: [demoOAuthApp(oauth)],
      settings: oauth,
      clock: (mallId) => clocks.now(mallId),
      store,
    });
    const tokens = await issueDemoTokens(authority, ['mall.read_category'], 'm');
    expect(await authority.verifyAccessToken(tokens.access_token)).toMatchObject({ ok: true });
    await clocks.advance('m', oauth.lifetimes.accessTokenMs);
    expect(await authority.verifyAccessToken(tokens.access_token)).toEqual({ ok: false, reason: 'expired' });
  });
});

describe('OAuth store (redis): the mall epoch keys', () => {
  it('lives as long as the longest record of its mall, keeps its expiry through a reset, and is never made for a mall with no records', async () => {
    const shared = await redis.connect();
    const clocks = createMallClocks(() => start, redisClockOffsets(shared));
    const store = redisOAuthStore(shared, clocks);
    const epochKey = (mallId: string) => `${shared.prefix}cached:oauth-epoch:${mallId}`;
    await store.revokeMall('never-issued');
    expect(await shared.client.exists(epochKey('never-issued'))).toBe(0);

    await store.putCode('ec', { ...grant, redirectUri: 'http://127.0.0.1/cb', expiresAt: start + 60_000 });
    const afterCode = await shared.client.pttl(epochKey('m'));
    expect(afterCode).toBeGreaterThan(50_000);
    expect(afterCode).toBeLessThanOrEqual(60_000);
    await store.putTokens('ea', { ...grant, expiresAt: start + 1_000 }, 'er', {
      ...grant,
      expiresAt: start + 7_200_000,
    });
    expect(await shared.client.pttl(epochKey('m'))).toBeGreaterThan(7_000_000);
    await store.putCode('ec2', { ...grant, redirectUri: 'http://127.0.0.1/cb', expiresAt: start + 60_000 });
    expect(await shared.client.pttl(epochKey('m'))).toBeGreaterThan(7_000_000);

    await store.revokeMall('m');
    expect(await shared.client.get(epochKey('m'))).toBe('1');
    expect(await shared.client.pttl(epochKey('m'))).toBeGreaterThan(7_000_000);
    expect(await store.refreshToken('er')).toBeUndefined();
  });
});
