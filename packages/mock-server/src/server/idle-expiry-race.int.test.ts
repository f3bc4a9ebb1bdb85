// No acknowledged write is lost to idle expiry, on real PostgreSQL and Redis: three mock instances
// share the stores and one simulated expiry clock; many malls go idle past the idle limit, then
// each gets its first write again at once, spread over the three. Every write answered 201 is
// read back afterwards at every instance, whichever instance's use found the others idle and
// dropped them meanwhile; the malls are on the roster again, and once idle in turn they are
// dropped, data included.

import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { startMockServers } from './mock-server.js';

type Served = Awaited<ReturnType<typeof startMockServers>>;
// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here
type Body = Record<string, any>;

const idleMs = 60_000;
const mallCount = 24;
const scopes = ['mall.read_product', 'mall.write_product'];
let postgres: TestPostgresServer;
let redis: TestRedisServer;
let instances: Served[] = [];
/** The one expiry clock of all three instances (simulated: nothing waits on the wall clock). */
let now = 1_000_000;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedisServer()]);
  for (let i = 0; i < 3; i += 1) {
    instances.push(
      await startMockServers({
        apis: ['admin'],
        ports: { admin: 0 },
        sandbox: { store: { postgres: postgres.url }, log: () => {} },
        redis: { url: redis.url, prefix: 'race:' },
        mallLimits: { idleMs },
        expiryClock: () => now,
      }),
    );
  }
}, 90_000);
afterAll(async () => {
  await Promise.all(instances.map((served) => served.close()));
  instances = [];
  await Promise.all([redis?.stop(), postgres?.stop()]);
});

const at = (i: number) => instances[i % instances.length] as Served;
const mallIds = Array.from({ length: mallCount }, (_, i) => `race-${i}`);

const products = async (i: number, mallId: string, token: string, body?: unknown, id?: number) => {
  const path = id === undefined ? 'products' : `products/${id}`;
  const response = await fetch(`${at(i).mocks[0]?.url}/__mall/${mallId}/api/v2/admin/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify({ request: body }),
  });
  return { status: response.status, body: (await response.json()) as Body };
};
const product = (name: string) => ({
  product_name: name,
  supply_price: '100.00',
  price: '1000.00',
  display: 'T',
  selling: 'T',
});

describe('idle expiry on shared PostgreSQL and Redis', { timeout: 120_000 }, () => {
  it('keeps every write acknowledged while the malls it reaches are found idle and dropped', async () => {
    const tokens = new Map<string, string>();
    for (const mallId of mallIds)
      tokens.set(mallId, (await issueDemoTokens(at(0).authority, scopes, mallId)).access_token);
    const token = (mallId: string) => tokens.get(mallId) as string;
    for (const [i, mallId] of mallIds.entries())
      expect((await products(i, mallId, token(mallId), product('before the pause'))).status).toBe(201);

    now += idleMs + 5_000;
    const written = await Promise.all(
      mallIds.map((mallId, i) => products(i + 1, mallId, token(mallId), product(`first after ${mallId}`))),
    );
    expect(written.map((answer) => answer.status)).toEqual(mallIds.map(() => 201));

    for (const [i, mallId] of mallIds.entries()) {
      const id = written[i]?.body.product.product_no as number;
      for (const replica of [0, 1, 2]) {
        const read = await products(replica, mallId, token(mallId), undefined, id);
        expect(read.status, `${mallId} product ${id} at instance ${replica}`).toBe(200);
        expect(read.body.product.product_name).toBe(`first after ${mallId}`);
      }
    }
    expect(await at(0).malls.mallIds()).toEqual(expect.arrayContaining(mallIds));

    now += idleMs + 5_000;
    expect((await at(2).malls.mallIds()).filter((id) => id.startsWith('race-'))).toEqual([]);
    expect((await at(1).sandbox?.mallIds())?.filter((id) => id.startsWith('race-'))).toEqual([]);
  });
});
