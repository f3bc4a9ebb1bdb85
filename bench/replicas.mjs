#!/usr/bin/env node
// Benchmark: requests/s and p99 of the stateful GET mix (support/request-mix.mjs) and of an admin
// write mix (support/write-mix.mjs: create, rename, delete products on a few malls) for
//   - the in-memory single process, rate limits lifted (support/serve-mock.mjs): the baseline;
//   - the stock `prism mock` CLI on the same bundled specs (one process per API);
//   - on shared stores (a throwaway PostgreSQL and redis-server, support/shared-replicas.mjs): 1 and
//     2 replicas of `mall-api-mock --rate-limit=off` (separate processes on their own ports, the
//     load spread over them) and one with `--workers 2` — when this build's `mall-api-mock --help`
//     lists `--store`, `--redis`, `--workers` and `--rate-limit`; otherwise those rows say "not
//     available in this build".
// All in the same run, each after a 2 s warm-up; prints each figure and its ratio to the baseline,
// the lines the replicas logged about Redis (failed commands) per row, and the best stateful GET
// figure (any row but Prism's) as a multiple of stock Prism's. For the in-memory and Prism rows it
// also prints the cores the servers and the load generator (this process) used during the GET mix
// and the servers' CPU time per request: whether the server or the load generator was the limit. `--compare-cli PATH` adds the
// shared-store rows of another build's `dist/cli.js` (one with `--rate-limit`), measured in the
// same run on the same stores: a before/after of a change.
// `--distinct-urls` sends the GET mix with no URL twice (support/request-mix.mjs), to every row alike.
//   node bench/replicas.mjs [--seconds 10] [--connections 48] [--malls 4] [--compare-cli PATH] [--distinct-urls]
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { loadMix } from './support/load-mix.mjs';
import { startPrismMocks } from './support/prism-mocks.mjs';
import { startServeMock } from './support/serve-mock-process.mjs';
import { mockCli, redisLines, startReplica, startSharedStores } from './support/shared-replicas.mjs';
import { loadWrites, mallToken } from './support/write-mix.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '48' },
    malls: { type: 'string', default: '4' },
    'compare-cli': { type: 'string' },
    'distinct-urls': { type: 'boolean', default: false },
  },
});
const load = {
  seconds: Number(values.seconds),
  connections: Number(values.connections),
  distinct: values['distinct-urls'],
};
const mallIds = Array.from({ length: Number(values.malls) }, (_, i) => `bench-write-${i + 1}`);
const readScopes = 'mall.read_category,mall.read_product,mall.read_analytics';
const writeScopes = 'mall.read_product,mall.write_product';

/** @typedef {import('@mall-api/rate-limit').ApiName} ApiName */
/** @typedef {import('./support/load-mix.mjs').LoadResult} LoadResult */
/**
 * A server set under test: a base URL per API (each a list when the load is spread over replicas).
 * The server processes' ids, when known, for reading their CPU time.
 * @typedef {{ urls: Record<ApiName, string>[], readToken: string, writeTokens: Record<string, string>, pids?: number[], stop: () => Promise<void> }} Served
 */

/** Options this build's `mall-api-mock` offers, from its help. */
const help = execFileSync(process.execPath, [mockCli, '--help'], { encoding: 'utf8' });
const offers = (/** @type {string} */ flag) => new RegExp(`^\\s+--${flag}\\b`, 'm').test(help);
const sharedStores = ['store', 'redis', 'workers', 'rate-limit'].every(offers);

/**
 * Runs the GET mix and the write mix, spreading connections evenly over the replicas' URLs.
 * @param {Served} served
 * @returns {Promise<{ reads: LoadResult, writes: LoadResult }>}
 */
async function measure(served) {
  const share = { ...load, connections: Math.max(3, Math.floor(load.connections / served.urls.length)) };
  /** @type {(results: LoadResult[]) => LoadResult} */
  const sum = (results) =>
    results.length === 1 && results[0]
      ? results[0]
      : {
          requestsPerSecond: results.reduce((total, r) => total + r.requestsPerSecond, 0),
          p99: Math.max(...results.map((r) => r.p99)),
          failures: results.reduce((total, r) => total + r.failures, 0),
        };
  const reads = sum(
    await Promise.all(
      served.urls.map((urls) =>
        loadMix(urls, served.readToken, { ...share, ...(served.pids ? { serverPids: served.pids } : {}) }),
      ),
    ),
  );
  const writes = sum(
    await Promise.all(served.urls.map((urls) => loadWrites(urls.admin, served.writeTokens, share))),
  );
  return { reads, writes };
}

/** Tokens for the read mix (the demo mall) and for each write mall, through the OAuth flow. */
async function tokens(/** @type {string} */ adminUrl) {
  const writeTokens = Object.fromEntries(
    await Promise.all(mallIds.map(async (mall) => [mall, await mallToken(adminUrl, mall, writeScopes)])),
  );
  return { readToken: await mallToken(adminUrl, 'demomall', readScopes), writeTokens };
}

/** @returns {Promise<Served>} */
async function inMemory() {
  const server = await startServeMock({ MOCK_SANDBOX: '1' });
  return {
    urls: [server.urls],
    ...(await tokens(server.urls.admin)),
    ...(server.pid === undefined ? {} : { pids: [server.pid] }),
    stop: server.stop,
  };
}

/** @returns {Promise<Served>} */
async function prism() {
  const servers = await startPrismMocks();
  // Prism checks no token: any bearer value passes.
  const writeTokens = Object.fromEntries(mallIds.map((mall) => [mall, 'bench-token']));
  return {
    urls: [servers.urls],
    readToken: 'bench-token',
    writeTokens,
    pids: servers.pids,
    stop: servers.stop,
  };
}

/**
 * `replicas` mall-api-mock processes (each with `--workers N`) on the shared stores.
 * @param {import('./support/shared-replicas.mjs').SharedStores} stores
 * @param {number} replicas
 * @param {number} workers
 * @param {string} [cli] another build's `cli.js`
 * @returns {Promise<Served>}
 */
async function onSharedStores(stores, replicas, workers, cli) {
  /** @type {import('./support/shared-replicas.mjs').Replica[]} */
  const started = [];
  for (let i = 0; i < replicas; i++)
    started.push(await startReplica(stores, { workers, ...(cli ? { cli } : {}) }));
  const urls = started.map((replica) => replica.urls);
  return {
    urls,
    ...(await tokens(urls[0]?.admin ?? '')),
    stop: async () => void (await Promise.all(started.map((replica) => replica.stop()))),
  };
}

/** @type {[string, { reads: LoadResult, writes: LoadResult, redisLines: number } | string][]} */
const rows = [];
/** Measures one server set and stops it. */
async function run(/** @type {string} */ label, /** @type {() => Promise<Served>} */ start) {
  const served = await start();
  const logged = redisLines.count;
  try {
    rows.push([label, { ...(await measure(served)), redisLines: redisLines.count - logged }]);
  } finally {
    await served.stop();
  }
}

await run('in memory, 1 process', inMemory);
await run('stock prism mock', prism);
const sharedLabels = ['shared stores, 1 replica', 'shared stores, 2 replicas', 'shared stores, --workers 2'];
if (sharedStores) {
  const stores = await startSharedStores();
  try {
    // A compared build's row right after the same row of this one, so both meet the same load.
    const compared = values['compare-cli'];
    const both = async (
      /** @type {string} */ label,
      /** @type {number} */ replicas,
      /** @type {number} */ workers,
    ) => {
      await run(label, () => onSharedStores(stores, replicas, workers));
      if (compared)
        await run(`${label} [compared]`, () => onSharedStores(stores, replicas, workers, compared));
    };
    await both(sharedLabels[0] ?? '', 1, 1);
    await run(sharedLabels[1] ?? '', () => onSharedStores(stores, 2, 1));
    await both(sharedLabels[2] ?? '', 1, 2);
  } finally {
    await stores.stop();
  }
} else {
  for (const label of sharedLabels) rows.push([label, 'not available in this build']);
}

const baseline = rows[0]?.[1];
/** @type {(r: LoadResult, base: LoadResult | undefined) => string} */
const cell = (r, base) =>
  `${r.requestsPerSecond.toFixed(0).padStart(7)} req/s p99 ${String(r.p99).padStart(4)} ms ${base ? `${(r.requestsPerSecond / base.requestsPerSecond).toFixed(2)}x`.padStart(6) : ''} (non-2xx ${r.failures})`;
if (load.distinct) process.stdout.write('GET mix with distinct URLs (a bench_n counter on every request)\n');
process.stdout.write(
  `${'setup'.padEnd(39)} ${'GET mix'.padEnd(54)} ${'write mix'.padEnd(54)} Redis log lines\n`,
);
for (const [label, result] of rows) {
  const line =
    typeof result === 'string' || typeof baseline !== 'object'
      ? String(result)
      : `${cell(result.reads, baseline.reads)}   ${cell(result.writes, baseline.writes)}   ${result.redisLines}`;
  process.stdout.write(`${label.padEnd(39)} ${line}\n`);
}
for (const [label, result] of rows) {
  if (typeof result !== 'object' || result.reads.serverCpuMicrosPerRequest === undefined) continue;
  const { serverCores = 0, loaderCores = 0, serverCpuMicrosPerRequest } = result.reads;
  process.stdout.write(
    `GET mix, ${label}: servers used ${serverCores.toFixed(2)} cores, the load generator ${loaderCores.toFixed(2)}; servers' CPU ${serverCpuMicrosPerRequest.toFixed(1)} µs per request\n`,
  );
}
const prismRow = rows.find(([label]) => label === 'stock prism mock')?.[1];
const stateful = rows.filter(([label, result]) => label !== 'stock prism mock' && typeof result === 'object');
const best = stateful.reduce(
  (top, row) =>
    typeof row[1] === 'object' &&
    typeof top[1] === 'object' &&
    row[1].reads.requestsPerSecond > top[1].reads.requestsPerSecond
      ? row
      : top,
  stateful[0] ?? ['', ''],
);
if (typeof prismRow === 'object' && typeof best[1] === 'object')
  process.stdout.write(
    `best stateful GET mix (${best[0]}) against stock prism mock: ${(best[1].reads.requestsPerSecond / prismRow.reads.requestsPerSecond).toFixed(1)}x\n`,
  );
