// Test support: N `mall-api-mock` processes on one PostgreSQL and one Redis (@mall-api/test-support's
// harnesses), each serving the three APIs on free ports, as a load balancer sees them;
// `useReplicaSet` starts the stores and replicas before a file's tests and stops them after. Not
// part of the package's API.
import type { ChildProcess } from 'node:child_process';
import { basicAuthorization } from '@mall-api/auth';
import type { ApiName } from '@mall-api/spec-model';
import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll } from 'vitest';
import { demoCollectionClients } from '../oauth/demo-credentials.js';
import { exitCode, startCli, urlOf } from './cli-process.js';

/** One running replica. */
export interface Replica {
  readonly child: ChildProcess;
  /** Its output so far. */
  output(): string;
  /** The base URL of an API (the default mall), e.g. `http://127.0.0.1:41234`. */
  url(api: ApiName): string;
  /** The per-mall base URL of an API. */
  mall(api: ApiName, mallId: string): string;
}

/** The collection API's demo Basic credentials (every scope), as an Authorization header. */
export const collectionAuthorization = (() => {
  const [partner] = demoCollectionClients;
  return basicAuthorization(partner.clientId, partner.clientSecret);
})();

/** The command's arguments of a replica serving the three APIs on free ports over the stores. */
export const replicaArguments = (stores: { postgres: string; redis: string }): string[] => [
  '--ports',
  'collection=0,admin=0,analytics=0',
  '--store',
  stores.postgres,
  '--redis',
  stores.redis,
];

/** Starts `count` replicas on the given stores with `extra` arguments (default: no request lines) and waits until each serves. */
export async function startReplicas(
  count: number,
  stores: { postgres: string; redis: string },
  extra: readonly string[] = ['--quiet'],
): Promise<Replica[]> {
  const started = Array.from({ length: count }, () => startCli([...replicaArguments(stores), ...extra]));
  const outputs = await Promise.all(started.map(({ ready }) => ready));
  return started.map(({ child, output }, index) => {
    const url = (api: string) => urlOf(outputs[index] ?? '', api);
    return { child, output, url, mall: (api, mallId) => `${url(api)}/__mall/${mallId}` };
  });
}

/** Ends the replicas still running (SIGTERM) and waits for them. */
export async function stopReplicas(replicas: readonly Replica[]): Promise<void> {
  await Promise.all(
    replicas
      .filter(({ child }) => child.exitCode === null && child.signalCode === null)
      .map(({ child }) => {
        const exited = exitCode(child);
        child.kill('SIGTERM');
        return exited;
      }),
  );
}

/** The stores and replicas of one test file; read them inside tests (they start in `beforeAll`). */
export interface ReplicaSet {
  readonly postgres: TestPostgresServer;
  /** Replaced when a test restarts Redis on its port. */
  redis: TestRedisServer;
  readonly replicas: Replica[];
}

/** Starts one PostgreSQL, one Redis and `count` replicas on them (`extra` as in startReplicas) before the file's tests; stops all after. */
export function useReplicaSet(count: number, extra?: readonly string[]): ReplicaSet {
  const set = { replicas: [] as Replica[] } as { replicas: Replica[] } & Partial<ReplicaSet>;
  beforeAll(async () => {
    const [postgres, redis] = await Promise.all([startPostgres(), startRedisServer()]);
    Object.assign(set, { postgres, redis });
    set.replicas.push(...(await startReplicas(count, { postgres: postgres.url, redis: redis.url }, extra)));
  }, 90_000);
  afterAll(async () => {
    await stopReplicas(set.replicas);
    await Promise.all([set.postgres?.stop(), set.redis?.stop()]);
  }, 30_000);
  return set as ReplicaSet;
}

/** Polls `check` every 100 ms until it holds, failing after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
