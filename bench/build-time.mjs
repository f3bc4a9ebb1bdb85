#!/usr/bin/env node
// Benchmark: a cold `npm run build` (turbo cache and outputs removed) against a second, warm one
// with nothing changed. Prints both times and whether the warm run was a full cache hit.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const outputs = [
  '.turbo',
  'node_modules/.cache/turbo',
  'specs/dist',
  'docs/dist',
  'packages/collection-client/src/generated',
];
for (const name of ['rate-limit', 'auth', 'client-kit', 'collection-client', 'mock-server'])
  outputs.push(`packages/${name}/dist`);

function timedBuild() {
  const started = performance.now();
  const output = execFileSync('npm', ['run', 'build', '--silent'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { seconds: (performance.now() - started) / 1000, output };
}

for (const path of outputs) rmSync(join(root, path), { recursive: true, force: true });
const cold = timedBuild();
const warm = timedBuild();
const fullHit = /FULL TURBO/.test(warm.output);
process.stdout.write(
  `cold build ${cold.seconds.toFixed(1)} s\nwarm build ${warm.seconds.toFixed(1)} s (full cache hit: ${fullHit ? 'yes' : 'no'})\n`,
);
