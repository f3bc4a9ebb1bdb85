#!/usr/bin/env node
// Benchmark: calls per second straight through the sandbox gateway (no HTTP), this checkout's
// build against a baseline checkout's build in the same process, alternating rounds. A baseline
// whose gateway still answered synchronously is called without awaiting a value it has at once,
// so the figure shows what the one async contract costs an in-memory sandbox. The mix per round:
// admin reads (getProduct, listProducts), admin writes (createCategory) and a collection count,
// over 8 seeded malls. Run with: node bench/sandbox-gateway.mjs <baseline-checkout> (built first).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const baselineRoot = process.argv[2];
if (!baselineRoot) throw new Error('usage: node bench/sandbox-gateway.mjs <baseline-checkout>');
const root = join(import.meta.dirname, '..');
const malls = 8;
const calls = 4_000;
const rounds = 6;

/** @param {string} checkout */
async function sandboxOf(checkout) {
  const entry = join(checkout, 'packages', 'sandbox', 'dist', 'index.js');
  const { createSandboxMalls } = await import(pathToFileURL(entry).href);
  return createSandboxMalls({ clockFor: () => () => Date.parse('2026-03-01T00:00:00+09:00') });
}

/** The i-th call of the mix. @param {number} i */
function callOf(i) {
  const mallId = `bench-${i % malls}`;
  const call = { path: {}, query: {}, body: undefined, mallId };
  switch (i % 5) {
    case 0:
      return { ...call, api: 'admin', operationId: 'getProduct', path: { product_no: 1 + (i % 20) } };
    case 1:
      return { ...call, api: 'admin', operationId: 'listProducts', query: { limit: 10, offset: i % 30 } };
    case 2:
      return {
        ...call,
        api: 'admin',
        operationId: 'createCategory',
        body: { request: { category_name: `c${i}` } },
      };
    case 3:
      return { ...call, api: 'admin', operationId: 'countProducts', query: { price_min: i % 1000 } };
    default:
      return { ...call, api: 'collection', operationId: 'countProducts', query: {}, mallId: undefined };
  }
}

/** Calls per second of `calls` calls, one at a time. @param {any} sandbox @param {number} start */
async function measure(sandbox, start) {
  const began = performance.now();
  for (let i = start; i < start + calls; i++) {
    const answer = sandbox.handle(callOf(i));
    const outcome = answer instanceof Promise ? await answer : answer;
    if (!outcome.ok && outcome.reason !== 'not-found') throw new Error(JSON.stringify(outcome));
  }
  return calls / ((performance.now() - began) / 1000);
}

const builds = { old: await sandboxOf(baselineRoot), new: await sandboxOf(root) };
for (const sandbox of Object.values(builds)) await measure(sandbox, 0); // malls started, code warm
/** @type {{ old: number[], new: number[] }} */
const rates = { old: [], new: [] };
for (let round = 1; round <= rounds; round++)
  for (const build of /** @type {('old' | 'new')[]} */ (round % 2 ? ['old', 'new'] : ['new', 'old']))
    rates[build].push(await measure(builds[build], round * calls));
/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const [load] = (await import('node:os')).loadavg();
console.log(
  `sandbox gateway, ${calls} calls per round, median of ${rounds} rounds, load average ${load?.toFixed(1)}: old ${median(rates.old).toFixed(0)}/s (${rates.old.map((r) => r.toFixed(0)).join(', ')})  new ${median(rates.new).toFixed(0)}/s (${rates.new.map((r) => r.toFixed(0)).join(', ')})  new/old ${(median(rates.new) / median(rates.old)).toFixed(2)}`,
);
for (const sandbox of Object.values(builds)) await sandbox.close();
