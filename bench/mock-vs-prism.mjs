#!/usr/bin/env node
// Benchmark: our mocks (one process serving all three APIs: Prism's engine plus our front layer,
// rate limits raised out of the way, auth and validation on) against the stock `prism mock` CLI
// serving the same bundled specs (one process per API, as the CLI requires), both under the same
// mix of every API's GET operations, 50 connections in all. Prints requests/s and p99 latency of
// each and the ratio, all measured in this run (each after a 2 s warm-up). `--only` limits the mix
// to the requests of the given paths (comma-separated, without the query), e.g. one operation.
//   node bench/mock-vs-prism.mjs [--seconds 10] [--connections 50] [--only /api/products]
import { parseArgs } from 'node:util';
import { loadMix } from './support/load-mix.mjs';
import { startPrismMocks } from './support/prism-mocks.mjs';
import { startServeMock } from './support/serve-mock-process.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
  },
});
/** @typedef {import('@mall-api/rate-limit').ApiName} ApiName */
/** @typedef {import('./support/load-mix.mjs').LoadResult} LoadResult */

const seconds = Number(values.seconds);
const connections = Number(values.connections);

/**
 * Loads every API at once with the GET mix, after a 2 s warm-up.
 * @param {Record<ApiName, string>} urls base URL of each API's server
 * @param {string} token bearer token for the admin and analytics APIs
 */
const load = (urls, token) =>
  loadMix(urls, token, { seconds, connections, ...(values.only ? { paths: values.only.split(',') } : {}) });

async function ours() {
  const server = await startServeMock();
  try {
    return await load(server.urls, server.token);
  } finally {
    await server.stop();
  }
}

async function prism() {
  const servers = await startPrismMocks();
  try {
    return await load(servers.urls, 'bench-token');
  } finally {
    await servers.stop();
  }
}

const mine = await ours();
const stock = await prism();
/** @type {(label: string, r: LoadResult) => string} */
const row = (label, r) =>
  `${label.padEnd(24)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p99 ${String(r.p99).padStart(5)} ms   non-2xx/errors ${r.failures}`;
process.stdout.write(
  `${row('mall-api mocks', mine)}\n${row('stock prism mock CLI', stock)}\nratio (ours / prism): ${(mine.requestsPerSecond / stock.requestsPerSecond).toFixed(1)}x\n`,
);
