#!/usr/bin/env node
// Benchmark: one build's sandbox gateway straight through (no HTTP): `calls` calls one at a time
// on 8 seeded malls, reads only (`r`: admin listProducts) or half writes (`w`: createCategory
// between the reads). A build whose gateway answers synchronously is not awaited, so running it
// for a baseline checkout and this one, alternately, shows what the async contract costs.
// Run with: node bench/sandbox-gateway.mjs <checkout> <calls> <r|w> (the checkout built first).
import { pathToFileURL } from 'node:url';

const [checkout, count, mix] = [
  process.argv[2] ?? '.',
  Number(process.argv[3] ?? 8000),
  process.argv[4] ?? 'w',
];
const entry = pathToFileURL(`${checkout}/packages/sandbox/dist/index.js`).href;
const { createSandboxMalls } = await import(entry);
const sandbox = await createSandboxMalls({ clockFor: () => () => Date.parse('2026-03-01T00:00:00+09:00') });
const began = performance.now();
for (let i = 0; i < count; i++) {
  const mallId = `bench-${i % 8}`;
  const write = mix === 'w' && i % 2 === 1;
  const answer = sandbox.handle(
    write
      ? {
          api: 'admin',
          operationId: 'createCategory',
          path: {},
          query: {},
          body: { request: { category_name: `c${i}` } },
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
  const outcome = answer instanceof Promise ? await answer : answer;
  if (!outcome.ok) throw new Error(JSON.stringify(outcome));
}
console.log(`${checkout} ${mix} ${count} calls in ${Math.round(performance.now() - began)} ms`);
await sandbox.close();
