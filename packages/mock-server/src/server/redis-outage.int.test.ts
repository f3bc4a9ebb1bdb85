// A replica whose Redis goes away: a request that needs it is a 503 with the API's envelope (no
// crash, no answer from stale memory), the control API too, `/__ready` says not ready while
// `/__health` stays live, the cause is logged once for the outage and never with the URL, in the
// log format asked for (JSON here, like every other line); when Redis is back on its port the
// replica answers again by itself. Its `/__metrics` answer through the outage and show it.

import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { startMockServers } from './mock-server.js';

let redis: TestRedisServer;
let served: Awaited<ReturnType<typeof startMockServers>>;
const logged: string[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  served = await startMockServers({
    apis: ['admin'],
    ports: { admin: 0 },
    sandbox: { seed: 1 },
    redis: { url: redis.url, prefix: 'outage:' },
    logError: (line) => logged.push(line),
    logFormat: 'json',
  });
}, 60_000);
afterAll(async () => {
  await served?.close();
  await redis?.stop();
});

const base = () => served.mocks[0]?.url ?? '';
const categories = (token: string) =>
  fetch(`${base()}/api/v2/admin/categories`, { headers: { authorization: `Bearer ${token}` } });

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('answers 503 with the envelope while Redis is down, says not ready, and recovers when it returns', async () => {
  const { access_token } = await issueDemoTokens(served.authority, ['mall.read_category']);
  expect((await categories(access_token)).status).toBe(200);
  expect((await fetch(`${base()}/__ready`)).status).toBe(200);

  await redis.stop();
  await until(async () => (await fetch(`${base()}/__ready`)).status === 503);
  const refused = await categories(access_token);
  expect(refused.status).toBe(503);
  expect(await refused.json()).toEqual({
    error: {
      code: expect.any(String),
      message: expect.stringMatching(/unavailable/),
      more_info: expect.anything(),
    },
  });
  const control = await fetch(`${base()}/__mock/malls/demomall/journal`);
  expect(control.status).toBe(503);
  expect((await fetch(`${base()}/__health`)).status).toBe(200);
  expect(await (await fetch(`${base()}/__ready`)).json()).toEqual({ status: 'store-unavailable' });
  // The metrics still answer, and show the outage.
  const during = await fetch(`${base()}/__metrics`);
  expect(during.status).toBe(200);
  const scraped = await during.text();
  expect(scraped).toMatch(/^mall_api_stores_up 0$/m);
  expect(
    Number(/^mall_api_store_unavailable_total\{api="admin"\} (\d+)$/m.exec(scraped)?.[1]),
  ).toBeGreaterThanOrEqual(1);
  const outage = logged.filter((line) => line.includes('unavailable'));
  expect(outage).toHaveLength(1);
  expect(outage.join('\n')).not.toContain(redis.url);

  redis = await startRedisServer({ port: redis.port });
  await until(async () => (await fetch(`${base()}/__ready`)).status === 200);
  // The restarted Redis kept nothing (no persistence): a new token, and the replica answers again.
  const { access_token: fresh } = await issueDemoTokens(served.authority, ['mall.read_category']);
  expect((await categories(fresh)).status).toBe(200);
  expect(await (await fetch(`${base()}/__metrics`)).text()).toMatch(/^mall_api_stores_up 1$/m);
  expect(logged.filter((line) => line.includes('available again'))).toHaveLength(1);
  for (const line of logged)
    expect(JSON.parse(line)).toMatchObject({ level: expect.any(String), message: expect.any(String) });
}, 60_000);
