#!/usr/bin/env node
// Profile: where the stateful single process spends its CPU under the GET mix. Serves the three
// mocks with sandbox malls (seed 1) in a child process run with `node --cpu-prof`, loads it with the
// mix of bench/support/request-mix.mjs after a warm-up, stops it (the profile is written on exit),
// and prints the top functions by self and inclusive time from the .cpuprofile it wrote.
//   node bench/profile-sandbox.mjs [--seconds 10] [--connections 30] [--top 20] [--keep DIR]
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { profileReport } from './support/cpu-profile-summary.mjs';
import { loadMix } from './support/load-mix.mjs';
import { startServeMock } from './support/serve-mock-process.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '30' },
    top: { type: 'string', default: '20' },
    keep: { type: 'string' },
  },
});
const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'mall-api-profile-'));
const server = await startServeMock({ MOCK_SANDBOX: '1' }, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
let result;
try {
  result = await loadMix(server.urls, server.token, {
    seconds: Number(values.seconds),
    connections: Number(values.connections),
  });
} finally {
  await server.stop();
}
const profile = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
if (!profile) throw new Error(`no .cpuprofile written in ${dir}`);
process.stdout.write(
  `${result.requestsPerSecond.toFixed(0)} req/s under the profiler, failures ${result.failures}\n${profileReport(join(dir, profile), Number(values.top))}\n`,
);
if (!values.keep) rmSync(dir, { recursive: true, force: true });
