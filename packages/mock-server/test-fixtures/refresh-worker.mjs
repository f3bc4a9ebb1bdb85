// Test fixture, run as a separate process: one "app worker" that needs an access token for a mall
// whose tokens live in a shared Redis store, refreshing them against the mock's token endpoint if
// they are stale. Prints the access token it ends up with (tests only; real apps never print it).
//   node refresh-worker.mjs <redis-url> <mall-base-url> <mall-id> [--die-after-save]
import { createTokenManager, refreshToken } from '@mall-api/auth';
import { createRedisTokenStore } from '@mall-api/auth/redis';
import { Redis } from 'ioredis';

const [redisUrl, mallBaseUrl, mallId, flag] = process.argv.slice(2);
if (!redisUrl || !mallBaseUrl || !mallId)
  throw new Error('usage: refresh-worker.mjs <redis-url> <mall-base-url> <mall-id> [--die-after-save]');
const redis = new Redis(redisUrl);
const shared = createRedisTokenStore({ redis });
/** @type {import('@mall-api/auth').TokenStore} */
const store =
  flag === '--die-after-save'
    ? {
        ...shared,
        async set(id, tokens) {
          await shared.set(id, tokens);
          process.kill(process.pid, 'SIGKILL');
        },
      }
    : shared;
const manager = createTokenManager({
  mallId,
  store,
  refresh: (token) =>
    refreshToken({ mallBaseUrl, clientId: 'demo-app', clientSecret: 'demo-app-secret', refreshToken: token }),
});
try {
  process.stdout.write(`${await manager.getAccessToken()}\n`);
} finally {
  redis.disconnect();
}
