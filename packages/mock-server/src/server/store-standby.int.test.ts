// A replica started before its shared stores: the `mall-api-mock` command started while PostgreSQL
// is stopped, and another while Redis is not running yet, keeps running instead of exiting —
// `/__health` 200, `/__ready` 503, a data call 503 with the error envelope — and becomes ready by
// itself once the store starts, on the ports it printed, answering data calls.

import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import { freePort, startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoToken, exitCode, startCli, urlOf } from '../testing/cli-process.js';
import { replicaArguments, until } from '../testing/replica-set.js';

let postgres: TestPostgresServer;
let redis: TestRedisServer | undefined;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
const started: ReturnType<typeof startCli>[] = [];
afterAll(async () => {
  await Promise.all(
    started.map(({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = exitCode(child);
      child.kill('SIGTERM');
      return exited;
    }),
  );
  await Promise.all([postgres?.stop(), redis?.stop()]);
}, 30_000);

/** Starts the command on the stores and waits until it prints its admin URL (standby or not). */
async function startReplica(stores: { postgres: string; redis: string }) {
  const cli = startCli(replicaArguments(stores));
  started.push(cli);
  await until(async () => urlOf(cli.output(), 'admin') !== '');
  return { ...cli, admin: urlOf(cli.output(), 'admin') };
}

/** The replica waits alive, live and not ready, answering data calls 503 with the envelope. */
async function expectStandby(replica: Awaited<ReturnType<typeof startReplica>>) {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(replica.child.exitCode).toBeNull();
  expect((await fetch(`${replica.admin}/__health`)).status).toBe(200);
  const ready = await fetch(`${replica.admin}/__ready`);
  expect(ready.status).toBe(503);
  const data = await fetch(`${replica.admin}/api/v2/admin/categories`);
  expect(data.status).toBe(503);
  expect(await data.json()).toEqual({
    error: { code: 'service_unavailable', message: expect.stringMatching(/stores/), more_info: {} },
  });
}

/** The replica becomes ready on the same port and answers a data call. */
async function expectServing(replica: Awaited<ReturnType<typeof startReplica>>) {
  await until(async () => (await fetch(`${replica.admin}/__ready`)).status === 200, 60_000);
  await replica.ready;
  const token = await demoToken(replica.admin);
  const categories = await fetch(`${replica.admin}/api/v2/admin/categories?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(categories.status).toBe(200);
}

it('waits in standby while PostgreSQL is stopped, then serves once it starts', async () => {
  redis = await startRedisServer();
  await postgres.pause();
  let replica: Awaited<ReturnType<typeof startReplica>>;
  try {
    replica = await startReplica({ postgres: postgres.url, redis: redis.url });
    await expectStandby(replica);
    expect(replica.output()).toMatch(/waiting for postgres at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  } finally {
    await postgres.start();
  }
  await expectServing(replica);
}, 120_000);

it('waits in standby while Redis is not running, then serves once it starts', async () => {
  await redis?.stop();
  const port = await freePort();
  const replica = await startReplica({ postgres: postgres.url, redis: `redis://127.0.0.1:${port}` });
  try {
    await expectStandby(replica);
  } finally {
    redis = await startRedisServer({ port });
  }
  await expectServing(replica);
}, 120_000);
