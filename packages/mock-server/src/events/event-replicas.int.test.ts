// Two replicas on one real PostgreSQL and one real Redis, each with its own dispatcher and the same
// receiver: every event of a write on either replica is delivered exactly once, although both
// dispatchers are woken for the mall at once and race to claim it (the claim is a write under the
// mall's row lock, holding a lease), and both replicas' logs show the same single attempt. A
// receiver registered through one replica's control API is kept with the mall in the shared store:
// a write through the other replica delivers its event there, once.
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
/** A receiver keeping what it is sent, with the `X-API-Key` each came with. */
function keepingReceiver() {
  const received: Body[] = [];
  const keys: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      keys.push(request.headers['x-api-key'] as string | undefined);
      response.writeHead(200).end('ok');
    });
  });
  return { received, keys, server };
}
const { received, server } = keepingReceiver();
const registered = keepingReceiver();
const urlOf = (listening: typeof server) =>
  `http://127.0.0.1:${(listening.address() as AddressInfo).port}/hook`;
let replicas: Awaited<ReturnType<typeof startMockServers>>[] = [];
/** What the dispatchers could not do (a store they could not reach). */
const errors: unknown[] = [];

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedisServer()]);
  for (const listening of [server, registered.server])
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const url = urlOf(server);
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
  for (const listening of [server, registered.server]) {
    listening.closeAllConnections();
    await new Promise((resolve) => listening.close(resolve));
  }
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

it('delivers to a receiver registered through another replica, once', { timeout: 120_000 }, async () => {
  const [first, second] = replicas as [(typeof replicas)[number], (typeof replicas)[number]];
  const url = urlOf(registered.server);
  const answer = await fetch(`${first.mocks[0]?.url}/__mock/malls/elsewhere/webhooks/receiver`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, key: 'shared-key' }),
  });
  expect(answer.status).toBe(200);
  const before = received.length;
  const outcome = (await second.sandbox?.handle({
    api: 'admin',
    operationId: 'createProduct',
    path: {},
    query: {},
    body: { request: { product_name: 'Registered elsewhere', supply_price: '10.00' } },
    mallId: 'elsewhere',
  })) as { body: Body };
  // The write woke the second replica's dispatcher; the first one races for the mall too.
  first.events?.dispatcher.kick('elsewhere');
  await Promise.all(replicas.map((replica) => replica.events?.dispatcher.idle()));
  expect(errors).toEqual([]);
  expect(registered.received.map((body) => body.resource.product_no)).toEqual([
    outcome.body.product.product_no,
  ]);
  expect(registered.keys).toEqual(['shared-key']);
  expect(received.length).toBe(before);
});
