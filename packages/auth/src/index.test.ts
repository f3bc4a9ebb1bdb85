// Specification of the package's public entry point: what it exports, and that the Redis store
// (which needs ioredis) is only reachable through the `./redis` subpath.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import * as auth from './index.js';

describe('@mall-api/auth entry point', () => {
  it('exports the runtime API', () => {
    expect(Object.keys(auth).sort()).toEqual(
      [
        'AuthError',
        'OAuthError',
        'PLATFORM_UTC_OFFSET_MS',
        'ReauthorizationRequiredError',
        'TokenStoreError',
        'basicAuthorization',
        'buildAuthorizeUrl',
        'constantTimeEqual',
        'createBearerMiddleware',
        'createFileTokenStore',
        'createMemoryTokenStore',
        'createState',
        'createTokenManager',
        'credentialsMatch',
        'exchangeCode',
        'formatPlatformDateTime',
        'formatTokenResponse',
        'loginWithLoopback',
        'oauthUrl',
        'parseBasicAuthorization',
        'parsePlatformDateTime',
        'parseTokenResponse',
        'refreshToken',
        'systemStoreClock',
        'verifyState',
      ].sort(),
    );
  });

  it('does not export the Redis store, which has its own subpath export', async () => {
    expect('createRedisTokenStore' in auth).toBe(false);
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    expect(manifest.exports['./redis']).toEqual({
      import: { types: './dist/redis-token-store.d.ts', default: './dist/redis-token-store.js' },
      require: { types: './dist/cjs/redis-token-store.d.ts', default: './dist/cjs/redis-token-store.js' },
    });
  });
});
