// Test support: one real `redis-server` per test file (`@mall-api/test-support/redis-server`) and
// connections to it, each with its own key prefix so the tests of a file never see each other's
// keys. The behaviour suites of the stores run over memory and over this.

import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll } from 'vitest';
import { connectRedis, type SharedRedis } from '../redis/redis-connection.js';

/** Starts Redis before the file's tests and stops it after; `connect` gives a fresh prefix each call. */
export function useTestRedis(): { url(): string; connect(): Promise<SharedRedis>; prefix(): string } {
  let server: TestRedisServer | undefined;
  const connections: SharedRedis[] = [];
  let count = 0;
  beforeAll(async () => {
    server = await startRedisServer();
  }, 20_000);
  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    await server?.stop();
  });
  const url = () => {
    if (!server) throw new Error('Redis is not started yet');
    return server.url;
  };
  return {
    url,
    prefix: () => `test${++count}:`,
    async connect() {
      const connection = await connectRedis({ url: url(), prefix: `test${++count}:`, log: () => {} });
      connections.push(connection);
      return connection;
    },
  };
}
