#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
// Benchmark: the heap a sandbox keeps as a tester resets one mall to ever new seeds (each seed's
// sample records are built once and shared by the malls of that seed). Resets one mall to seed 1,
// then to `--seeds` other seeds one after another, and prints the collected heap every 40 seeds
// and at the end, as a ratio of the heap after seed 1 (the baseline, measured in the same run).
//   node bench/sandbox-seeds-memory.mjs [--seeds 160]
import { parseArgs } from 'node:util';
import { createSandboxMalls } from '@mall-api/sandbox';

if (typeof globalThis.gc !== 'function') {
  const run = spawnSync(process.execPath, ['--expose-gc', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
const gc = /** @type {() => void} */ (globalThis.gc);
const { values } = parseArgs({ options: { seeds: { type: 'string', default: '160' } } });
const seeds = Number(values.seeds);

/** The heap in MiB once weak references of finished work are cleared and collected. */
async function heapMiB() {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc();
  }
  return process.memoryUsage().heapUsed / 2 ** 20;
}

const malls = await createSandboxMalls({});
await malls.reset('bench', { seed: 1 });
const baseline = await heapMiB();
console.log(`after seed 1: ${baseline.toFixed(1)} MiB (baseline)`);
for (let seed = 2; seed <= seeds + 1; seed++) {
  await malls.reset('bench', { seed });
  if ((seed - 1) % 40 === 0 || seed === seeds + 1) {
    const heap = await heapMiB();
    console.log(
      `after ${seed - 1} more seeds: ${heap.toFixed(1)} MiB (${(heap / baseline).toFixed(2)}× baseline)`,
    );
  }
}
await malls.close();
