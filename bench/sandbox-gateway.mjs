#!/usr/bin/env node
// Benchmark: the sandbox gateway straight through (no HTTP), a baseline checkout's build against
// this one in one process, in alternating rounds: each round makes `calls` calls one at a time on
// 8 seeded malls, reads only (`r`: admin listProducts) or half writes (`w`: createCategory between
// the reads). A round before the measured ones seeds the malls and warms both builds up. Prints
// each pair of rounds (wall and CPU time) and the median new/old ratio (above 1: this build is
// faster). Run with: node bench/sandbox-gateway.mjs <baseline checkout> [calls] [rounds] [r|w]
// (both built first).
import { pathToFileURL } from 'node:url';

const [baseline, calls, rounds, mix] = [
  process.argv[2],
  Number(process.argv[3] ?? 4000),
  Number(process.argv[4] ?? 8),
  process.argv[5] ?? 'w',
];
if (!baseline) throw new Error('usage: sandbox-gateway.mjs <baseline checkout> [calls] [rounds] [r|w]');

/**
 * A build's gateway over 8 malls of the seeded sample mall, at a fixed clock.
 * @param {string} checkout
 * @returns {Promise<import('@mall-api/sandbox').SandboxMalls>}
 */
async function gatewayOf(checkout) {
  const entry = pathToFileURL(`${checkout}/packages/sandbox/dist/index.js`).href;
  const { createSandboxMalls } = await import(entry);
  return createSandboxMalls({ clockFor: () => () => Date.parse('2026-03-01T00:00:00+09:00') });
}

let made = 0;
/**
 * One round on `sandbox`: its wall and CPU milliseconds.
 * @param {import('@mall-api/sandbox').SandboxMalls} sandbox
 */
async function round(sandbox) {
  const began = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const mallId = `bench-${i % 8}`;
    const write = mix === 'w' && i % 2 === 1;
    const answer = sandbox.handle(
      write
        ? {
            api: 'admin',
            operationId: 'createCategory',
            path: {},
            query: {},
            body: { request: { category_name: `c${made++}` } },
            mallId,
          }
        : {
            api: 'admin',
            operationId: 'listProducts',
            path: {},
            query: { limit: 10 },
            body: undefined,
            mallId,
          },
    );
    // A build whose gateway answers at once (a baseline's local malls) is not awaited.
    const outcome = answer instanceof Promise ? await answer : answer;
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
  }
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - began, cpu: (used.user + used.system) / 1000 };
}

const median = (/** @type {number[]} */ values) =>
  (values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN).toFixed(2);
const old = await gatewayOf(baseline);
const now = await gatewayOf('.');
await round(old);
await round(now);
/** @type {{ wall: number[], cpu: number[] }} */
const ratios = { wall: [], cpu: [] };
for (let r = 0; r < rounds; r++) {
  // Which build goes first alternates, so neither always runs after the other's garbage.
  const newFirst = r % 2 === 1 ? await round(now) : undefined;
  const a = await round(old);
  const b = newFirst ?? (await round(now));
  ratios.wall.push(a.wall / b.wall);
  ratios.cpu.push(a.cpu / b.cpu);
  console.log(
    `round ${r + 1}: old ${a.wall.toFixed(0)} ms (cpu ${a.cpu.toFixed(0)}), new ${b.wall.toFixed(0)} ms (cpu ${b.cpu.toFixed(0)})`,
  );
}
console.log(
  `${mix} ${calls} calls x ${rounds} rounds: new/old throughput, median: wall ${median(ratios.wall)}, cpu ${median(ratios.cpu)}`,
);
await Promise.all([old.close(), now.close()]);
