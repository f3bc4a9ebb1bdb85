#!/usr/bin/env node
// Profile: where the stateful single process spends its CPU under the GET mix. Serves the three
// mocks with sandbox malls (seed 1) in a child process run with `node --cpu-prof` — or, with
// `--shared`, one `mall-api-mock` replica on a throwaway PostgreSQL and Redis
// (support/shared-replicas.mjs) — loads it with the mix of bench/support/request-mix.mjs after a
// warm-up (`--only`: the requests of the given paths, comma-separated, without the query), stops it
// (the profile is written on exit), and prints the top functions by self and inclusive time from
// the .cpuprofile it wrote.
//   node bench/profile-sandbox.mjs [--shared] [--seconds 10] [--connections 30] [--top 20] [--keep DIR] [--only PATHS]
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { profileReport } from './support/cpu-profile-summary.mjs';
import { loadMix } from './support/load-mix.mjs';
import { startServeMock } from './support/serve-mock-process.mjs';
import { startReplica, startSharedStores } from './support/shared-replicas.mjs';
import { mallToken } from './support/write-mix.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '30' },
    top: { type: 'string', default: '20' },
    keep: { type: 'string' },
    shared: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'mall-api-profile-'));
const profiling = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
const stores = values.shared ? await startSharedStores() : undefined;
/** The server under the profiler: its URLs, a token of the demo mall and how to stop it. */
async function profiled() {
  if (!stores) return startServeMock({ MOCK_SANDBOX: '1' }, profiling);
  const replica = await startReplica(stores, { nodeOptions: profiling });
  const scopes = 'mall.read_category,mall.read_product,mall.read_analytics';
  return { ...replica, token: await mallToken(replica.urls.admin, 'demomall', scopes) };
}
let result;
try {
  const server = await profiled();
  try {
    result = await loadMix(server.urls, server.token, {
      seconds: Number(values.seconds),
      connections: Number(values.connections),
      ...(values.only ? { paths: values.only.split(',') } : {}),
    });
  } finally {
    await server.stop();
  }
} finally {
  await stores?.stop();
}
const profile = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
if (!profile) throw new Error(`no .cpuprofile written in ${dir}`);
process.stdout.write(
  `${result.requestsPerSecond.toFixed(0)} req/s under the profiler, failures ${result.failures}\n${profileReport(join(dir, profile), Number(values.top))}\n`,
);
if (!values.keep) rmSync(dir, { recursive: true, force: true });
