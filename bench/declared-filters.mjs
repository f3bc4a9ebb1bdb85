#!/usr/bin/env node
// Benchmark: the cost of deriving the sandbox's list and count filters from the specs' `x-query`
// declarations, against a baseline commit's sandbox in the same run. Builds the baseline's
// `packages/sandbox` into a temporary folder (against this checkout's other packages), then, for
// each build in alternating rounds, answers collection listProducts/countProducts and admin
// listProducts/countProducts calls straight through the sandbox (no HTTP), each call with a filter
// value of its own so no kept answer is reused, over 20 seeded malls. Prints calls per second per
// build and the ratio new/old. Run with: node bench/declared-filters.mjs [baseline-commit]
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const baseline = process.argv[2] ?? 'cb15d54';
const folder = join(root, 'bench', '.baseline-sandbox');
const malls = 20;
const calls = 400;
const rounds = 5;

rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
execFileSync('sh', [
  '-c',
  `git -C "${root}" archive ${baseline} packages/sandbox/src | tar -x -C "${folder}"`,
]);
writeFileSync(
  join(folder, 'tsconfig.json'),
  JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: { rootDir: 'packages/sandbox/src', outDir: 'dist', noEmitOnError: false },
    include: ['packages/sandbox/src'],
    exclude: ['packages/sandbox/src/**/*.test.ts', 'packages/sandbox/src/testing/**'],
  }),
);
try {
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(folder, 'tsconfig.json')], {
    stdio: 'ignore',
  });
} catch {
  // Type errors against this checkout's newer packages do not stop the emit the bench runs.
}

/**
 * @typedef {import('@mall-api/sandbox').SandboxMalls} Sandbox
 * @typedef {{ api: 'collection' | 'admin', operationId: string, query: Record<string, unknown> }} Call
 */

/**
 * The sandbox of one build, seeded, with its malls started.
 * @param {string} entry
 * @returns {Promise<Sandbox>}
 */
async function sandboxOf(entry) {
  const { createSandboxMalls } = await import(pathToFileURL(entry).href);
  const sandbox = await createSandboxMalls({ clockFor: () => () => Date.parse('2026-03-01T00:00:00+09:00') });
  for (let m = 0; m < malls; m++) productsIn(sandbox, `bench-${m}`);
  return sandbox;
}

/**
 * How many products a mall holds (its first call starts it).
 * @param {Sandbox} sandbox
 * @param {string} mallId
 */
async function productsIn(sandbox, mallId) {
  const reply = await sandbox.handle({
    api: 'admin',
    operationId: 'countProducts',
    path: {},
    query: {},
    body: undefined,
    mallId,
  });
  return /** @type {{ body: { count: number } }} */ (reply).body.count;
}

/** The calls of one measurement: each with its own price bound, so none repeats. */
/** @type {Record<string, (i: number) => Call>} */
const workloads = {
  'collection listProducts': (i) => ({
    api: 'collection',
    operationId: 'listProducts',
    query: { collection_product_category: ['C100000', 'C200000', 'C300000'], price_min: 1000 + i, limit: 20 },
  }),
  'collection countProducts': (i) => ({
    api: 'collection',
    operationId: 'countProducts',
    query: { collection_product_category: ['C100000', 'C200000', 'C300000'], price_min: 1000 + i },
  }),
  'admin listProducts': (i) => ({
    api: 'admin',
    operationId: 'listProducts',
    query: { price_min: 1000 + i, product_name: ['linen'], display: 'T', limit: 20 },
  }),
  'admin countProducts': (i) => ({
    api: 'admin',
    operationId: 'countProducts',
    query: { price_min: 1000 + i, product_name: ['linen'], display: 'T' },
  }),
};

/**
 * Calls per second of `calls` calls of a workload, offset by `start` so each round asks anew.
 * @param {Sandbox} sandbox
 * @param {(i: number) => Call} make
 * @param {number} start
 */
async function measure(sandbox, make, start) {
  const began = performance.now();
  for (let i = 0; i < calls; i++) {
    const { api, operationId, query } = make(start + i);
    const reply = await sandbox.handle({
      api,
      operationId,
      path: {},
      query,
      body: undefined,
      mallId: api === 'collection' ? undefined : `bench-${i % malls}`,
    });
    if (!reply.ok) throw new Error(`${operationId} refused: ${JSON.stringify(reply)}`);
  }
  return calls / ((performance.now() - began) / 1000);
}

const builds = {
  old: await sandboxOf(join(folder, 'dist', 'index.js')),
  new: await sandboxOf(join(root, 'packages', 'sandbox', 'dist', 'index.js')),
};
/** @type {Record<string, { old: number[], new: number[] }>} */
const results = Object.fromEntries(Object.keys(workloads).map((name) => [name, { old: [], new: [] }]));
for (let round = 0; round < rounds; round++)
  for (const [name, make] of Object.entries(workloads))
    for (const build of /** @type {('old' | 'new')[]} */ (round % 2 === 0 ? ['old', 'new'] : ['new', 'old']))
      results[name]?.[build].push(await measure(builds[build], make, (round + 1) * 100_000));
/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(
  `baseline ${baseline}; ${malls} seeded malls (products per mall: old ${await productsIn(builds.old, 'bench-0')}, new ${await productsIn(builds.new, 'bench-0')}); ${calls} calls per measurement; median of ${rounds} rounds`,
);
for (const [name, { old, new: fresh }] of Object.entries(results))
  console.log(
    `${name.padEnd(26)} old ${median(old).toFixed(0).padStart(6)}/s  new ${median(fresh).toFixed(0).padStart(6)}/s  new/old ${(median(fresh) / median(old)).toFixed(2)}`,
  );
for (const sandbox of Object.values(builds)) await sandbox.close();
rmSync(folder, { recursive: true, force: true });
