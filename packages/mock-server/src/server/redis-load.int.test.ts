// Two mock replicas on one real, healthy Redis under sustained concurrent load — thousands of
// calls, 50 at a time, spread over both and over the three APIs, reads and writes, one replica
// with the rate limits on (its buckets in Redis) and one with them off — answer no call with 503
// and log no failed Redis command. What is asserted is counts, never how long anything took.

import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { startMockServers } from './mock-server.js';

type Replica = Awaited<ReturnType<typeof startMockServers>>;

const calls = 3_000;
const concurrency = 50;
const mallId = 'loadmall';
const scopes = ['mall.read_category', 'mall.read_product', 'mall.write_product', 'mall.read_analytics'];

let redis: TestRedisServer;
let replicas: Replica[] = [];
/** What the replicas logged as errors (each failed Redis command is one line). */
const logged: string[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  replicas = await Promise.all(
    (['on', 'off'] as const).map((rateLimit) =>
      startMockServers({
        ports: { collection: 0, admin: 0, analytics: 0 },
        sandbox: { seed: 1 },
        redis: redis.url,
        rateLimit,
        logError: (line) => logged.push(line),
      }),
    ),
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await redis?.stop();
});

/** The base URL of an API at a replica. */
const urlOf = (replica: Replica, api: string) => replica.mocks.find((mock) => mock.api === api)?.url ?? '';

/** The `i`-th call of the mix: GETs on all three APIs and a product created on the admin API. */
function call(i: number, token: string): Promise<Response> {
  const replica = replicas[i % replicas.length] as Replica;
  const bearer = { authorization: `Bearer ${token}` };
  const mall = (api: string) => `${urlOf(replica, api)}/__mall/${mallId}`;
  switch (i % 5) {
    case 0:
      return fetch(`${mall('admin')}/api/v2/admin/categories?limit=5`, { headers: bearer });
    case 1:
      return fetch(`${mall('admin')}/api/v2/admin/products?limit=5`, { headers: bearer });
    case 2:
      return fetch(
        `${mall('analytics')}/visitors/view?mall_id=${mallId}&start_date=2026-10-01&end_date=2026-10-02`,
        {
          headers: bearer,
        },
      );
    case 3:
      return fetch(`${urlOf(replica, 'collection')}/api/shops`, {
        headers: {
          authorization: `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`,
        },
      });
    default:
      return fetch(`${mall('admin')}/api/v2/admin/products`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({
          shop_no: 1,
          request: { product_name: `Load ${i}`, supply_price: '1000.00', price: '2000.00', display: 'T' },
        }),
      });
  }
}

// A generous bound: the calls take 10-20 s on a loaded 2-core machine; nothing asserts a duration.
describe('two replicas on one healthy Redis under sustained load', { timeout: 180_000 }, () => {
  it(`answer ${calls} calls, ${concurrency} at a time, with no 503 and log no failed Redis command`, async () => {
    const [first] = replicas as [Replica];
    const { access_token: token } = await issueDemoTokens(first.authority, scopes, mallId);
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < calls) {
        const answer = await call(next++, token);
        await answer.arrayBuffer();
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    expect([...statuses.values()].reduce((sum, count) => sum + count, 0)).toBe(calls);
    expect(statuses.get(503) ?? 0).toBe(0);
    expect(logged).toEqual([]);
    // Every call was answered as the API answers a caller within or past its limit.
    expect([...statuses.keys()].filter((status) => ![200, 201, 429].includes(status))).toEqual([]);
    // The replica with the limits off answered its share of the calls whatever the limits are.
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThanOrEqual(calls / 2);
  });
});
