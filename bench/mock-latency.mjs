#!/usr/bin/env node
// Benchmark: latency of our mocks (all three APIs in one process, limits out of the way) at 50
// concurrent connections, first at steady request rates (open load, as QA suites and load tests
// send it), then saturated (closed loop: every connection sends again as soon as it is answered,
// so latency there is mostly queueing), after a short warm-up. Prints p50 / p99 / max per load.
//   node bench/mock-latency.mjs [--seconds 10] [--rates 1000,2000,4000]
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import autocannon from 'autocannon';
import { requestMix } from './support/request-mix.mjs';
import { startServeMock } from './support/serve-mock-process.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rates: { type: 'string', default: '1000,2000,4000' },
  },
});
const apis = apiNames;
const server = await startServeMock();
const mix = requestMix(server.token);
const connectionsPerApi = [17, 17, 16];

/**
 * Loads all three APIs for `seconds`, at `rate` requests/s in all or saturated when undefined.
 * @param {number | undefined} rate
 * @param {number} [seconds]
 */
async function run(rate, seconds = Number(values.seconds)) {
  const results = await Promise.all(
    apis.map((api, i) => {
      const connections = connectionsPerApi[i] ?? 1;
      return autocannon({
        url: server.urls[api],
        requests: mix[api],
        connections,
        duration: seconds,
        ...(rate ? { overallRate: Math.round((rate * connections) / 50) } : {}),
      });
    }),
  );
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    max: Math.max(...results.map((r) => r.latency.max)),
    failures: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  };
}

try {
  // Warm up first: each operation compiles its validator on its first request, and V8 optimises.
  await run(undefined, 3);
  for (const rate of [...values.rates.split(',').map(Number), undefined]) {
    const r = await run(rate);
    process.stdout.write(
      `${(rate ? `${rate} req/s offered` : 'saturated').padEnd(20)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  max ${r.max} ms  non-2xx/errors ${r.failures}\n`,
    );
  }
} finally {
  await server.stop();
}
