#!/usr/bin/env node
// Benchmark: the plain mock (example mode; `--sandbox`: the stateful default, sandbox malls of
// seed 1) of this checkout against the same mock built in a baseline checkout (an earlier
// commit), on the GET mix of all three APIs, in the same run: rounds alternate baseline and
// current so machine load hits both alike. Prints requests/s and the serving process's CPU time
// per request of each round, the medians and their ratios (CPU time per request moves less with
// other load on the machine than requests/s do).
// `--distinct-urls`: no URL of the mix sent twice (support/request-mix.mjs); `--only`: the
// requests of the given paths (comma-separated, without the query), e.g. one operation.
//   node bench/mock-front-layer.mjs --baseline /path/to/built/checkout [--sandbox] [--rounds 3] [--seconds 8] [--connections 30] [--distinct-urls] [--only /api/products]
import { parseArgs } from 'node:util';
import { measureMix as measure, median } from './support/measure-mix.mjs';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    sandbox: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '30' },
    'distinct-urls': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
if (!values.baseline) throw new Error('--baseline <checkout with a built mock-server> is required');
const options = {
  seconds: Number(values.seconds),
  connections: Number(values.connections),
  distinct: values['distinct-urls'],
  ...(values.only ? { paths: values.only.split(',') } : {}),
};
/** @type {Record<string, string>} */
const mode = values.sandbox ? { MOCK_SANDBOX: '1' } : {};

const baseline = [];
const current = [];
const baselineCpu = [];
const currentCpu = [];
/** @type {(r: import('./support/load-mix.mjs').LoadResult) => string} */
const cpu = (r) =>
  r.serverCpuMicrosPerRequest === undefined
    ? ''
    : `, ${r.serverCpuMicrosPerRequest.toFixed(1)} µs CPU/request`;
for (let round = 1; round <= Number(values.rounds); round++) {
  const before = await measure({ ...mode, MOCK_CHECKOUT: values.baseline }, options);
  const after = await measure(mode, options);
  baseline.push(before.requestsPerSecond);
  current.push(after.requestsPerSecond);
  if (before.serverCpuMicrosPerRequest !== undefined) baselineCpu.push(before.serverCpuMicrosPerRequest);
  if (after.serverCpuMicrosPerRequest !== undefined) currentCpu.push(after.serverCpuMicrosPerRequest);
  process.stdout.write(
    `round ${round}: baseline ${before.requestsPerSecond.toFixed(0)} req/s (p99 ${before.p99} ms, failures ${before.failures}${cpu(before)})   current ${after.requestsPerSecond.toFixed(0)} req/s (p99 ${after.p99} ms, failures ${after.failures}${cpu(after)})\n`,
  );
}
process.stdout.write(
  `median baseline ${median(baseline).toFixed(0)} req/s, current ${median(current).toFixed(0)} req/s, ratio (current / baseline) ${(median(current) / median(baseline)).toFixed(2)}\n`,
);
if (baselineCpu.length > 0 && currentCpu.length > 0)
  process.stdout.write(
    `median CPU per request: baseline ${median(baselineCpu).toFixed(1)} µs, current ${median(currentCpu).toFixed(1)} µs, ratio (current / baseline) ${(median(currentCpu) / median(baselineCpu)).toFixed(2)}\n`,
  );
