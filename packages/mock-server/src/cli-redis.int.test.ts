// Two `mall-api-mock` processes on one real Redis, one given it by `--redis`, the other by
// `MALL_API_MOCK_REDIS`: a token issued by one works at the other, a category written through one
// is journaled where the other reads the journal, and each process says it keeps its shared
// state in Redis.

import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoToken, exitCode, startCli, urlOf } from './testing/cli-process.js';

let redis: TestRedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(() => redis?.stop());

it('runs two processes on one Redis as one mock', async () => {
  const first = startCli(['admin', '--port', '0', '--redis', redis.url, '--redis-prefix', 'cli:']);
  const second = startCli(['admin', '--port', '0'], {
    env: { MALL_API_MOCK_REDIS: redis.url, MALL_API_MOCK_REDIS_PREFIX: 'cli:' },
  });
  try {
    const [one, two] = await Promise.all([first.ready, second.ready]);
    expect(one).toContain('shared state in Redis');
    expect(two).toContain('shared state in Redis');
    const token = await demoToken(urlOf(one, 'admin'));
    const listed = await fetch(`${urlOf(two, 'admin')}/api/v2/admin/categories?limit=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(listed.status).toBe(200);
    const journal = await fetch(
      `${urlOf(one, 'admin')}/__mock/malls/demomall/journal?operationId=listCategories`,
    );
    expect(((await journal.json()) as { entries: unknown[] }).entries).toHaveLength(1);
  } finally {
    const exits = [exitCode(first.child), exitCode(second.child)];
    first.child.kill('SIGTERM');
    second.child.kill('SIGTERM');
    expect(await Promise.all(exits)).toEqual([0, 0]);
  }
}, 60_000);
