#!/usr/bin/env node
// Benchmark: a soak of our mocks (all three APIs in one process, rate limits raised out of the
// way) under a steady request rate of the realistic mix for N minutes. Samples the server's RSS
// every 10 s and prints the growth from the first sample after warm-up to the last, and the count
// of non-2xx answers and errors (targets: growth < 10 %, zero errors).
//   node bench/mock-soak.mjs [--minutes 10] [--rate 600]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import autocannon from 'autocannon';
import { requestMix } from './support/request-mix.mjs';
import { startServeMock } from './support/serve-mock-process.mjs';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, rate: { type: 'string', default: '600' } },
});
const seconds = Number(values.minutes) * 60;
const rate = Number(values.rate);
const apis = apiNames;
const ready = await startServeMock();
/** @param {number | undefined} pid */
const rssOf = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
/** @type {{ at: number, rss: number }[]} */
const samples = [];
const sampler = setInterval(() => samples.push({ at: samples.length * 10, rss: rssOf(ready.pid) }), 10_000);
const mix = requestMix(ready.token);
try {
  const results = await Promise.all(
    apis.map((api) =>
      autocannon({
        url: ready.urls[api],
        requests: mix[api],
        connections: 4,
        overallRate: Math.round(rate / apis.length),
        duration: seconds,
      }),
    ),
  );
  const failures = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const detail = results.map(
    (r, i) =>
      `${apis[i]}: ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodeStats)}, ${r.errors} errors (${r.timeouts} timeouts)`,
  );
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  const warm = samples.find((s) => s.at >= 60) ?? samples[0];
  const last = samples.at(-1);
  const memory =
    warm && last
      ? `RSS after warm-up ${(warm.rss / 2 ** 20).toFixed(1)} MiB, at the end ${(last.rss / 2 ** 20).toFixed(1)} MiB, growth ${(((last.rss - warm.rss) / warm.rss) * 100).toFixed(1)} %`
      : 'RSS not sampled (the run was shorter than one 10 s sample)';
  process.stdout.write(
    `${total} requests in ${values.minutes} min at ${rate}/s target; non-2xx/errors: ${failures}\n` +
      `${detail.join('\n')}\n${memory}\n`,
  );
} finally {
  clearInterval(sampler);
  await ready.stop();
}
