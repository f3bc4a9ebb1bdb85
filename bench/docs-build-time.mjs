#!/usr/bin/env node
// Benchmark: how long the documentation site takes to build, `node docs/build/build-site.mjs` from
// a fresh process each time (landing page, guides with their computed pictures and tables, the
// three references with generated code samples, Redoc's bundle). Needs specs/dist and the
// @mall-api/rate-limit build, as `npm run build` leaves them. Prints every run, the median and the
// slowest, in seconds, and whether the slowest stays under the 15 s budget.
//   node bench/docs-build-time.mjs [--runs 5]
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const root = join(import.meta.dirname, '..');
const budgetSeconds = 15;

const seconds = [];
for (let run = 0; run < runs; run++) {
  const started = performance.now();
  execFileSync(process.execPath, [join(root, 'docs', 'build', 'build-site.mjs')], {
    cwd: root,
    stdio: 'ignore',
  });
  seconds.push((performance.now() - started) / 1000);
}
const sorted = [...seconds].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
const slowest = sorted[sorted.length - 1] ?? 0;
process.stdout.write(
  `docs site build (node ${process.version}, ${availableParallelism()} cores), ${runs} runs: ` +
    `${seconds.map((value) => value.toFixed(2)).join(' ')} s\n` +
    `median ${median.toFixed(2)} s, slowest ${slowest.toFixed(2)} s ` +
    `(budget ${budgetSeconds} s: ${slowest < budgetSeconds ? 'within' : 'OVER'})\n`,
);
if (slowest >= budgetSeconds) process.exitCode = 1;
