// Two replicas on one real PostgreSQL and one real Redis, each with its own dispatcher and the same
// receiver: every event of a write on either replica is delivered exactly once, although both
// dispatchers are woken for the mall at once and race to claim it (the claim is a write under the
// mall's row lock, holding a lease), and both replicas' logs show the same single attempt.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockServers } from '../server/mock-server.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here
type Body = Record<string, any>;

let postgres: TestPostgresServer;
let redis: TestRedisServer;
const received: Body[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    response.writeHead(200).end('ok');
  });
});
let replicas: Awaited<ReturnType<typeof startMockServers>>[] = [];
/** What the dispatchers could not do (a store they could not reach). */
const errors: unknown[] = [];

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedisServer()]);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  for (let n = 0; n < 2; n++)
    replicas.push(
      await startMockServers({
        apis: ['admin'],
        ports: { admin: 0 },
        sandbox: { store: { postgres: postgres.url } },
        redis: redis.url,
        events: { receiver: { url }, onError: (error) => errors.push(error) },
      }),
    );
}, 120_000);
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  replicas = [];
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await Promise.all([postgres?.stop(), redis?.stop()]);
});

it('delivers each event once across replicas racing for it', { timeout: 120_000 }, async () => {
  const created: number[] = [];
  for (let n = 0; n < 12; n++) {
    const replica = replicas[n % 2] as (typeof replicas)[number];
    const outcome = (await replica.sandbox?.handle({
      api: 'admin',
      operationId: 'createProduct',
      path: {},
      query: {},
      body: { request: { product_name: `Shared hook ${n}`, supply_price: '10.00' } },
      mallId: 'shared',
    })) as { body: Body };
    created.push(outcome.body.product.product_no);
    // Both dispatchers hear of the mall at once and race to claim its events.
    for (const other of replicas) other.events?.dispatcher.kick('shared');
    await Promise.all(replicas.map((other) => other.events?.dispatcher.idle()));
  }
  expect(errors).toEqual([]);
  expect(received.map((body) => body.resource.product_no)).toEqual(created);
  expect(received.every((body) => body.event_no === 90001)).toBe(true);
  for (const replica of replicas) {
    const log = (await replica.sandbox?.handle({
      api: 'admin',
      operationId: 'listWebhookLogs',
      path: {},
      query: {},
      body: undefined,
      mallId: 'shared',
    })) as { body: { logs: Body[] } };
    expect(log.body.logs.map((entry) => JSON.parse(entry.request_body).resource.product_no)).toEqual(created);
  }
});
