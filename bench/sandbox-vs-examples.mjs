#!/usr/bin/env node
// Benchmark: the stateful default (sandbox malls, seed 1) against example mode on the GET mix of
// all three APIs, in alternating rounds of the same run (target: the sandbox at least half the
// example mode's requests/s); then the cost of a new mall — the first request at a mall id never
// used before (the mall is created from the seed) against a second request at that mall.
//   node bench/sandbox-vs-examples.mjs [--rounds 3] [--seconds 8] [--connections 30] [--malls 20]
import { parseArgs } from 'node:util';
import { startMock } from '@mall-api/mock-server/testing';
import { loadMix } from './support/load-mix.mjs';
import { startServeMock } from './support/serve-mock-process.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '30' },
    malls: { type: 'string', default: '20' },
  },
});
const options = { seconds: Number(values.seconds), connections: Number(values.connections) };
/** @param {number[]} list */
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;

/** @param {Record<string, string>} env */
async function measure(env) {
  const server = await startServeMock(env);
  try {
    return await loadMix(server.urls, server.token, options);
  } finally {
    await server.stop();
  }
}

const examples = [];
const sandbox = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  const plain = await measure({});
  const stateful = await measure({ MOCK_SANDBOX: '1' });
  examples.push(plain.requestsPerSecond);
  sandbox.push(stateful.requestsPerSecond);
  process.stdout.write(
    `round ${round}: examples ${plain.requestsPerSecond.toFixed(0)} req/s (failures ${plain.failures})   sandbox ${stateful.requestsPerSecond.toFixed(0)} req/s (failures ${stateful.failures})\n`,
  );
}
process.stdout.write(
  `median examples ${median(examples).toFixed(0)} req/s, sandbox ${median(sandbox).toFixed(0)} req/s, ratio (sandbox / examples) ${(median(sandbox) / median(examples)).toFixed(2)}\n`,
);

const mock = await startMock({ apis: ['admin'] });
try {
  /** @type {number[]} */
  const first = [];
  /** @type {number[]} */
  const second = [];
  for (let i = 0; i < Number(values.malls); i++) {
    const mall = `bench-new-${i}`;
    const { access_token } = await mock.token(mall);
    const url = `${mock.mallUrl('admin', mall)}/api/v2/admin/products?limit=10`;
    const headers = { authorization: `Bearer ${access_token}` };
    for (const list of [first, second]) {
      const started = performance.now();
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      list.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    }
  }
  process.stdout.write(
    `new mall (seed 1): first request ${median(first).toFixed(1)} ms median, second ${median(second).toFixed(1)} ms median, ratio ${(median(first) / median(second)).toFixed(1)}x over ${first.length} malls\n`,
  );
} finally {
  await mock.close();
}
