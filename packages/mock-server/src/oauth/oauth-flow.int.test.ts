// The OAuth 2.0 flow across processes (an integration test: it starts redis-server and worker
// processes): several app processes sharing a Redis token store refresh an expired token exactly
// once against the admin mock, and a process killed right after saving rotated tokens loses nothing.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TokenSet } from '@mall-api/auth';
import { createRedisTokenStore } from '@mall-api/auth/redis';
import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMockServer } from '../server/mock-server.js';
import { type OAuthAppDriver, oauthAppDriver } from '../testing/oauth-app.js';
import { demoOAuthApp } from './demo-credentials.js';
import { createOAuthAuthority } from './oauth-authority.js';
import { platformOAuthSettings } from './platform-oauth.js';

const settings = await platformOAuthSettings();

const run = promisify(execFile);
// The worker processes use the real clock, so the authority does too.
const authority = createOAuthAuthority({ apps: [demoOAuthApp(settings)], settings });
let admin: RunningMock;
let oauth: OAuthAppDriver;

beforeAll(async () => {
  admin = await startMockServer({ api: 'admin', port: 0, authority });
  oauth = oauthAppDriver(admin.url);
});
afterAll(async () => {
  await admin.close();
});

describe('several processes sharing a Redis token store', () => {
  let redisServer: TestRedisServer;
  let redis: Redis;
  const worker = join(import.meta.dirname, '..', '..', 'test-fixtures', 'refresh-worker.mjs');
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
    const tokens = await oauth.exchange(await oauth.authorizeCode());
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
    await expect(oauth.refresh(stored?.refreshToken ?? '')).resolves.toMatchObject({ mallId: 'demomall' });
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
