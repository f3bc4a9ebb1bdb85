#!/usr/bin/env node
// Benchmark: GET throughput per core of the mock on shared stores against one in-memory process
// (issue #33): the stateful GET mix (support/request-mix.mjs, all three APIs, `--connections`
// clients in all) served by one in-memory process (support/serve-mock.mjs, the baseline) and by
// `--replicas` `mall-api-mock --rate-limit=off` processes on a throwaway PostgreSQL and
// redis-server (support/shared-replicas.mjs), the clients spread over the replicas; with
// `--compare-cli PATH`, the same replicas of another build's `dist/cli.js` (a before/after). Rows
// alternate within each of `--rounds` rounds (the two builds' replicas going first in turn, since
// the first pays for the database's first writes), each after a warm-up of `--warmup` seconds (fresh
// replicas that each serve a few hundred requests a second run colder code for longer than one
// process serving thousands: their warm-up takes longer). For each row it prints
// requests/s, the cores every server process used while counted (the mock processes, PostgreSQL's
// postmaster and backends, redis-server: support/descendants-cpu.mjs; the load generator, this
// process, apart), requests/s per core and that as a ratio of the in-memory process's in the same
// round, the server CPU per request split by kind of process (mock, Redis, PostgreSQL), and on
// shared stores Redis's read events (round trips of the replicas' connections: a batch of commands
// written at once is one) and Lua script calls per request; and the load average before and after.
//   node bench/shared-per-core.mjs [--seconds 10] [--warmup 2] [--connections 20] [--replicas 3] [--rounds 2] [--compare-cli PATH]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { descendantsCpuByKind } from './support/descendants-cpu.mjs';
import { loadMix } from './support/load-mix.mjs';
import { redisTotals } from './support/redis.mjs';
import { startServeMock } from './support/serve-mock-process.mjs';
import { startReplica, startSharedStores } from './support/shared-replicas.mjs';
import { mallToken } from './support/write-mix.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '20' },
    replicas: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '2' },
    'compare-cli': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const replicaCount = Number(values.replicas);
const readScopes = 'mall.read_category,mall.read_product,mall.read_analytics';

/** @typedef {Record<import('@mall-api/rate-limit').ApiName, string>} Urls */
/** @typedef {ReturnType<typeof descendantsCpuByKind>} CpuByKind */
/**
 * `trips`: Redis's read events (round trips of the replicas' connections) and script calls per
 * request while counted, on shared stores.
 * @typedef {{ requestsPerSecond: number, cores: number, byKind: CpuByKind, failures: number, p99: number, trips?: { reads: number, scripts: number } }} Measured
 */

/**
 * Loads `servers` (one URL set per process, the clients spread evenly) with the GET mix and reads
 * the cores every server process used meanwhile, and Redis's counts when given its client.
 * @param {Urls[]} servers
 * @param {string} token
 * @param {Redis} [redis]
 * @returns {Promise<Measured>}
 */
async function measure(servers, token, redis) {
  const share = Math.max(3, Math.floor(connections / servers.length));
  // The warm-up, then the counted run, each server's share at once.
  await Promise.all(
    servers.map((urls) =>
      loadMix(urls, token, { seconds: Number(values.warmup), connections: share, warmupSeconds: 0 }),
    ),
  );
  const redisBefore = redis && (await redisTotals(redis));
  const started = performance.now();
  const cpuBefore = descendantsCpuByKind();
  const results = await Promise.all(
    servers.map((urls) => loadMix(urls, token, { seconds, connections: share, warmupSeconds: 0 })),
  );
  const cpuAfter = descendantsCpuByKind();
  const elapsed = (performance.now() - started) / 1000;
  const redisAfter = redis && (await redisTotals(redis));
  const byKind = /** @type {CpuByKind} */ (
    Object.fromEntries(
      Object.entries(cpuAfter).map(([kind, s]) => [
        kind,
        (s - cpuBefore[/** @type {keyof CpuByKind} */ (kind)]) / elapsed,
      ]),
    )
  );
  const requestsPerSecond = results.reduce((sum, r) => sum + r.requestsPerSecond, 0);
  const requests = requestsPerSecond * seconds;
  return {
    requestsPerSecond,
    ...(redisBefore && redisAfter
      ? {
          trips: {
            reads: (redisAfter.reads - redisBefore.reads) / requests,
            scripts: (redisAfter.scripts - redisBefore.scripts) / requests,
          },
        }
      : {}),
    cores: byKind.node + byKind.redis + byKind.postgres + byKind.other,
    byKind,
    failures: results.reduce((sum, r) => sum + r.failures, 0),
    p99: Math.max(...results.map((r) => r.p99)),
  };
}

/** The in-memory process. */
async function inMemory() {
  const server = await startServeMock({ MOCK_SANDBOX: '1' });
  try {
    return await measure([server.urls], server.token);
  } finally {
    await server.stop();
  }
}

/**
 * `replicaCount` replicas of `cli` (default this build's) on the shared stores.
 * @param {import('./support/shared-replicas.mjs').SharedStores} stores
 * @param {string} [cli]
 */
async function replicas(stores, cli) {
  /** @type {import('./support/shared-replicas.mjs').Replica[]} */
  const started = [];
  try {
    for (let i = 0; i < replicaCount; i++) started.push(await startReplica(stores, cli ? { cli } : {}));
    const urls = started.map((replica) => replica.urls);
    return await measure(urls, await mallToken(urls[0]?.admin ?? '', 'demomall', readScopes), redis);
  } finally {
    await Promise.all(started.map((replica) => replica.stop()));
  }
}

const shared = `${replicaCount} replicas on PostgreSQL + Redis`;
const labels = ['in memory, 1 process', shared, ...(values['compare-cli'] ? [`${shared} [compared]`] : [])];
/** @type {Measured[][]} */
const rounds = [];
const loadBefore = loadavg()[0] ?? 0;
const stores = await startSharedStores();
const redis = new Redis(stores.redis);
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    const base = await inMemory();
    // The two builds' replicas take turns going first: the first after the stores start pays for
    // the database's first writes (the demo mall seeded) and a cold cache.
    const compared = values['compare-cli'];
    if (!compared) rounds.push([base, await replicas(stores)]);
    else if (round % 2 === 0) {
      const own = await replicas(stores);
      rounds.push([base, own, await replicas(stores, compared)]);
    } else {
      const other = await replicas(stores, compared);
      rounds.push([base, await replicas(stores), other]);
    }
  }
} finally {
  redis.disconnect();
  await stores.stop();
}
const loadAfter = loadavg()[0] ?? 0;

process.stdout.write(
  `GET mix, ${connections} clients, ${seconds} s per row; load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after\n`,
);
rounds.forEach((rows, round) => {
  const base = rows[0];
  rows.forEach((row, i) => {
    const perCore = row.requestsPerSecond / row.cores;
    const ratio = base ? perCore / (base.requestsPerSecond / base.cores) : Number.NaN;
    /** @param {number} cores */
    const micros = (cores) => ((cores * 1e6) / row.requestsPerSecond).toFixed(0);
    const { node, redis, postgres } = row.byKind;
    const trips = row.trips
      ? `  Redis per request: ${row.trips.reads.toFixed(2)} reads, ${row.trips.scripts.toFixed(2)} script calls`
      : '';
    process.stdout.write(
      `round ${round + 1}  ${(labels[i] ?? '').padEnd(46)} ${row.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${String(row.p99).padStart(4)} ms  ${row.cores.toFixed(2)} cores  ${perCore.toFixed(0).padStart(6)} req/s per core  ${ratio.toFixed(2)}x per core  CPU µs/request: mock ${micros(node)}, Redis ${micros(redis)}, PostgreSQL ${micros(postgres)}${trips}  (non-2xx ${row.failures})\n`,
    );
  });
});
