// Replicas with both stores when one store goes away: two `mall-api-mock` processes on one real
// PostgreSQL and one real Redis. While PostgreSQL is paused, and later while Redis is stopped, a
// data call answers 503 with the error envelope and `/__ready` 503 while `/__health` stays 200 and
// the processes stay alive; once the store is back each replica recovers by itself (polled through
// `/__ready`, then the data call succeeds). The per-store details (log lines, the control API) are
// in postgres-store.int.test.ts and redis-outage.int.test.ts.

import { startRedisServer } from '@mall-api/test-support/redis-server';
import { expect, it } from 'vitest';
import { demoToken } from '../testing/cli-process.js';
import { type Replica, until, useReplicaSet } from '../testing/replica-set.js';

const stores = useReplicaSet(2);
const { replicas } = stores;

const categories = (replica: Replica, token: string) =>
  fetch(`${replica.url('admin')}/api/v2/admin/categories?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
const ready = async (replica: Replica) => (await fetch(`${replica.url('admin')}/__ready`)).status;

/** Every replica answers a data call 503 with the envelope, says not ready, stays live and alive. */
async function expectUnavailable(token: string): Promise<void> {
  for (const replica of replicas) {
    await until(async () => (await ready(replica)) === 503);
    const refused = await categories(replica, token);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      error: { code: 'service_unavailable', message: expect.stringMatching(/unavailable/), more_info: {} },
    });
    expect((await fetch(`${replica.url('admin')}/__health`)).status).toBe(200);
    expect(replica.child.exitCode).toBeNull();
  }
}

/** Every replica becomes ready by itself, then answers the data call. */
async function expectRecovered(token: () => Promise<string>): Promise<void> {
  for (const replica of replicas) await until(async () => (await ready(replica)) === 200);
  const fresh = await token();
  for (const replica of replicas) expect((await categories(replica, fresh)).status).toBe(200);
}

it('answers 503 while PostgreSQL, then Redis, is down, and recovers by itself when each returns', async () => {
  const [first] = replicas as [Replica];
  const token = await demoToken(first.url('admin'));
  for (const replica of replicas) expect((await categories(replica, token)).status).toBe(200);

  await stores.postgres.pause();
  try {
    await expectUnavailable(token);
  } finally {
    await stores.postgres.start();
  }
  await expectRecovered(async () => token);

  await stores.redis.stop();
  try {
    await expectUnavailable(token);
  } finally {
    stores.redis = await startRedisServer({ port: stores.redis.port });
  }
  // The restarted Redis kept nothing (no persistence): the data call needs a new token.
  await expectRecovered(() => demoToken(first.url('admin')));
}, 90_000);
