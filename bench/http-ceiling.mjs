#!/usr/bin/env node
// Benchmark: how far the stateful default is from the least a Node.js HTTP server can do on the
// GET mix. Records each answer of the mix from the stateful mock (sandbox malls, seed 1), then, in
// the same run, loads a bare node:http server answering those recorded bytes by URL
// (support/serve-recorded.mjs) and the stateful mock itself with the same mix and load generator,
// printing requests/s, p99, the cores the server and the load generator used and the server's CPU
// time per request. What the mock spends above the bare server is its own work per request.
//   node bench/http-ceiling.mjs [--seconds 10] [--connections 48]
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { loadMix } from './support/load-mix.mjs';
import { requestMix } from './support/request-mix.mjs';
import { startServeMock } from './support/serve-mock-process.mjs';
import { mallToken } from './support/write-mix.mjs';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '48' } },
});
const load = { seconds: Number(values.seconds), connections: Number(values.connections) };
const scopes = 'mall.read_category,mall.read_product,mall.read_analytics';
/** @typedef {import('./support/load-mix.mjs').LoadResult} LoadResult */

/** The stateful mock's answers to the mix, by API and URL, and a token the mix can send. */
async function record() {
  const server = await startServeMock({ MOCK_SANDBOX: '1' });
  try {
    const token = await mallToken(server.urls.admin, 'demomall', scopes);
    const mix = requestMix(token);
    /** @type {Record<string, Record<string, import('./support/serve-recorded.mjs').Recorded>>} */
    const recorded = {};
    for (const api of apiNames) {
      recorded[api] = {};
      for (const { path = '/', headers } of mix[api]) {
        const response = await fetch(`${server.urls[api]}${path}`, {
          headers: /** @type {Record<string, string>} */ (headers ?? {}),
        });
        const kept = ['content-type', 'x-api-call-limit'].flatMap((name) => {
          const value = response.headers.get(name);
          return value === null ? [] : [[name, value]];
        });
        recorded[api][path] = {
          status: response.status,
          headers: Object.fromEntries(kept),
          body: await response.text(),
        };
      }
    }
    return { recorded, token };
  } finally {
    await server.stop();
  }
}

/** Loads the bare server answering `recorded`. */
async function bare(/** @type {Awaited<ReturnType<typeof record>>} */ { recorded, token }) {
  const child = fork(join(import.meta.dirname, 'support', 'serve-recorded.mjs'));
  try {
    /** @type {Record<import('@mall-api/rate-limit').ApiName, string>} */
    const urls = await new Promise((resolve) => {
      child.once('message', (message) => resolve(/** @type {any} */ (message)));
      child.send(recorded);
    });
    return await loadMix(urls, token, { ...load, ...(child.pid ? { serverPids: [child.pid] } : {}) });
  } finally {
    child.kill('SIGTERM');
  }
}

/** Loads the stateful mock. */
async function stateful() {
  const server = await startServeMock({ MOCK_SANDBOX: '1' });
  try {
    const token = await mallToken(server.urls.admin, 'demomall', scopes);
    return await loadMix(server.urls, token, {
      ...load,
      ...(server.pid ? { serverPids: [server.pid] } : {}),
    });
  } finally {
    await server.stop();
  }
}

const recording = await record();
/** @type {[string, LoadResult][]} */
const rows = [
  ['bare node:http, recorded answers', await bare(recording)],
  ['stateful default (sandbox malls)', await stateful()],
];
for (const [label, r] of rows)
  process.stdout.write(
    `${label.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s p99 ${r.p99} ms (non-2xx ${r.failures}); server ${r.serverCores?.toFixed(2) ?? '?'} cores, load generator ${r.loaderCores?.toFixed(2) ?? '?'}; server CPU ${r.serverCpuMicrosPerRequest?.toFixed(1) ?? '?'} µs/request\n`,
  );
const [ceiling, ours] = rows.map(([, r]) => r);
if (ceiling && ours)
  process.stdout.write(
    `stateful default / bare server: ${(ours.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2)} of the requests/s, ${((ours.serverCpuMicrosPerRequest ?? 0) / (ceiling.serverCpuMicrosPerRequest ?? 1)).toFixed(1)}x the CPU per request\n`,
  );
