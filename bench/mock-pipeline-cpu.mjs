#!/usr/bin/env node
// Benchmark: the CPU time per request of the mock's request path (example mode, or `--sandbox`:
// sandbox malls of seed 1; the GET mix of the three APIs, or `--only` the requests of the given
// paths, comma-separated, without the query; `--distinct-urls`: no URL sent twice; no sockets:
// support/handle-cpu.mjs) in this checkout
// against a baseline checkout (an earlier commit, built), in the same run: rounds alternate
// baseline and current, each in a fresh process. Counting the process's own CPU time rather than
// requests per second keeps the figure steady on a machine other work shares. Prints each round,
// the medians and their ratio (below 1: the current code needs less CPU per request).
//   node bench/mock-pipeline-cpu.mjs --baseline /path/to/built/checkout [--rounds 5] [--requests 30000] [--sandbox] [--only /api/products] [--distinct-urls]
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './support/measure-mix.mjs';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    requests: { type: 'string', default: '30000' },
    sandbox: { type: 'boolean', default: false },
    only: { type: 'string' },
    'distinct-urls': { type: 'boolean', default: false },
  },
});
if (!values.baseline) throw new Error('--baseline <checkout with a built mock-server> is required');
const script = fileURLToPath(new URL('./support/handle-cpu.mjs', import.meta.url));

/**
 * One measurement in a fresh process (the baseline's build when `checkout` is given).
 * @param {string | undefined} checkout
 * @returns {Promise<{ cpuMicrosPerRequest: number, failures: number }>}
 */
const measure = (checkout) =>
  new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [script, String(values.requests), ...(values.only ? [values.only] : [])],
      {
        env: {
          ...process.env,
          ...(checkout ? { MOCK_CHECKOUT: checkout } : {}),
          ...(values.sandbox ? { MOCK_SANDBOX: '1' } : {}),
          ...(values['distinct-urls'] ? { MOCK_DISTINCT_URLS: '1' } : {}),
        },
      },
      (error, stdout) =>
        error ? reject(error) : resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')),
    ),
  );

const baseline = [];
const current = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  const before = await measure(values.baseline);
  const after = await measure(undefined);
  baseline.push(before.cpuMicrosPerRequest);
  current.push(after.cpuMicrosPerRequest);
  process.stdout.write(
    `round ${round}: baseline ${before.cpuMicrosPerRequest.toFixed(1)} µs CPU/request (failures ${before.failures})   current ${after.cpuMicrosPerRequest.toFixed(1)} µs (failures ${after.failures})\n`,
  );
}
process.stdout.write(
  `median baseline ${median(baseline).toFixed(1)} µs, current ${median(current).toFixed(1)} µs CPU per request, ratio (current / baseline) ${(median(current) / median(baseline)).toFixed(2)}\n`,
);
