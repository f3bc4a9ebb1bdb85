#!/usr/bin/env node
// Runs every benchmark in bench/ one after another and prints their figures.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

for (const script of [
  'mock-vs-prism.mjs',
  'mock-latency.mjs',
  'mock-startup.mjs',
  'rate-limit-decisions.mjs',
  'client-size.mjs',
  'installed-sizes.mjs',
  'bulk-fetch.mjs',
  'sandbox-throughput.mjs',
  'sandbox-vs-examples.mjs',
  'profile-sandbox.mjs',
  'replicas.mjs',
  'http-ceiling.mjs',
  'redis-trips.mjs',
  'sandbox-bounds.mjs',
  'postgres-lifecycle.mjs',
  'analytics-simulation.mjs',
  'docs-build-time.mjs',
  'docs-reference-load.mjs',
  'build-time.mjs',
  'typecheck-cpu.mjs',
  'conformance-catch-rate.mjs',
]) {
  process.stdout.write(`\n== ${script}\n`);
  execFileSync(process.execPath, [join(import.meta.dirname, script)], { stdio: 'inherit' });
}
