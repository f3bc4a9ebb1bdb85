// Benchmark support: `mall-api-mock` replicas on shared stores — a throwaway PostgreSQL (the test
// harness packages/test-support/src/postgres-server.ts, through import-typescript.mjs) and redis-server
// (redis.mjs) — each replica a CLI process on its own free ports with the rate limits off
// (`--rate-limit=off`: the mock is measured, not its limits), as the in-process baseline has them.
// Counts the lines a replica writes to standard error about Redis (each failed command is logged
// once), passing them through. Not a measurement: the callers load and time the replicas.
import { join } from 'node:path';
import { importTypeScript } from './import-typescript.mjs';
import { freePort, startProcess } from './processes.mjs';
import { startRedis } from './redis.mjs';

const root = join(import.meta.dirname, '..', '..');
/** The built command. */
export const mockCli = join(root, 'packages/mock-server/dist/cli.js');

/**
 * The stores replicas share.
 * @typedef {{ store: string, redis: string, stop: () => Promise<void> }} SharedStores
 */

/** Starts PostgreSQL and Redis. @returns {Promise<SharedStores>} */
export async function startSharedStores() {
  // Imported by its .ts path at run time; typed through the same module.
  const { startPostgres } = /** @type {typeof import('@mall-api/test-support/postgres-server')} */ (
    await importTypeScript(join(root, 'packages/test-support/src/postgres-server.ts'))
  );
  const postgres = await startPostgres();
  const redis = await startRedis();
  return {
    store: postgres.url,
    redis: redis.url,
    stop: async () => void (await Promise.all([postgres.stop(), redis.stop()])),
  };
}

/**
 * One replica: its base URL per API and how to stop it.
 * @typedef {{ urls: Record<import('@mall-api/rate-limit').ApiName, string>, stop: () => Promise<void> }} Replica
 */

/** Lines about Redis the replicas wrote to standard error since the start (failed commands, outages). */
export const redisLines = { count: 0 };

/**
 * Starts one replica (`--workers N` processes on its ports) and resolves once `/__ready` answers 200.
 * @param {Pick<SharedStores, 'store' | 'redis'>} stores
 * @param {{ workers?: number, nodeOptions?: readonly string[], cli?: string }} [options] `cli`: the
 *   `cli.js` of another build to run (default: this checkout's)
 * @returns {Promise<Replica>}
 */
export async function startReplica(stores, { workers = 1, nodeOptions = [], cli = mockCli } = {}) {
  const ports = { collection: await freePort(), admin: await freePort(), analytics: await freePort() };
  const urls = /** @type {Replica['urls']} */ (
    Object.fromEntries(Object.entries(ports).map(([api, port]) => [api, `http://127.0.0.1:${port}`]))
  );
  const args = [
    ...nodeOptions,
    cli,
    '--quiet',
    `--ports=collection=${ports.collection},admin=${ports.admin},analytics=${ports.analytics}`,
    `--store=${stores.store}`,
    `--redis=${stores.redis}`,
    `--workers=${workers}`,
    '--rate-limit=off',
  ];
  const server = await startProcess(
    process.execPath,
    args,
    async () => (await fetch(`${urls.admin}/__ready`)).ok,
    {
      timeoutMs: 60_000,
      onStderr: (text) => {
        redisLines.count += text.split('\n').filter((line) => /Redis/.test(line)).length;
      },
    },
  );
  return { urls, stop: server.stop };
}
