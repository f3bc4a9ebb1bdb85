// The cap on malls holds for two replicas on one Redis together: using one mall more than the cap
// on either replica drops the least recently used mall of both, and its journal and fault rules
// are gone wherever they are read.

import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { createControlClient } from '../qa/control-client.js';
import { startMockServers } from './mock-server.js';

type Served = Awaited<ReturnType<typeof startMockServers>>;
let redis: TestRedisServer;
let replicas: Served[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  for (let i = 0; i < 2; i += 1) {
    replicas.push(
      await startMockServers({
        apis: ['admin'],
        ports: { admin: 0 },
        sandbox: { seed: 1 },
        mallLimits: { maxMalls: 2 },
        redis: { url: redis.url, prefix: 'roster:' },
      }),
    );
  }
}, 60_000);
afterAll(async () => {
  await Promise.all(replicas.map((served) => served.close()));
  replicas = [];
  await redis?.stop();
});

const use = async (served: Served, mallId: string) => {
  const { access_token } = await issueDemoTokens(served.authority, ['mall.read_category'], mallId);
  const answer = await fetch(`${served.mocks[0]?.url}/__mall/${mallId}/api/v2/admin/categories`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  expect(answer.status).toBe(200);
};

it('drops the least recently used mall of both replicas past the cap, with its journal and faults', async () => {
  const [a, b] = replicas as [Served, Served];
  const controlA = createControlClient(a.mocks[0]?.url ?? '');
  const controlB = createControlClient(b.mocks[0]?.url ?? '');
  await use(a, 'first');
  await controlA.addFault('first', { match: { method: 'DELETE' }, action: { kind: 'drop' } });
  await use(b, 'second');
  expect(await controlB.malls()).toEqual(['first', 'second']);
  await use(a, 'third');
  expect(await controlB.malls()).toEqual(['second', 'third']);
  expect(await controlB.count('first')).toBe(0);
  expect(await controlB.faults('first')).toEqual([]);
  expect(await controlA.count('second')).toBe(1);
});
