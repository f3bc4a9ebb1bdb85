#!/usr/bin/env node
// Bundles every API listed in redocly.yaml into specs/dist/<api>.openapi.{yaml,json} with the
// Redocly CLI, then lints the bundles too (the source tree is linted by `npm run lint`).
// It only packages the hand-written specs; it never edits them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const distDir = join(repoRoot, 'specs', 'dist');
const redocly = join(repoRoot, 'node_modules', '.bin', 'redocly');
const config = join(repoRoot, 'redocly.yaml');

/** API names declared under `apis:` in redocly.yaml. */
export function listApis() {
  const parsed = YAML.parse(readFileSync(config, 'utf8'));
  return Object.keys(parsed.apis ?? {});
}

/**
 * Runs the Redocly CLI from the repository root; its errors go to our stderr.
 * @param {string[]} args
 */
function run(args) {
  execFileSync(redocly, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
}

mkdirSync(distDir, { recursive: true });
const bundles = [];
for (const api of listApis()) {
  const yamlFile = join(distDir, `${api}.openapi.yaml`);
  run([
    'bundle',
    api,
    '--config',
    config,
    '--component-renaming-conflicts-severity',
    'error',
    '-o',
    yamlFile,
  ]);
  const document = YAML.parse(readFileSync(yamlFile, 'utf8'));
  writeFileSync(join(distDir, `${api}.openapi.json`), `${JSON.stringify(document, null, 2)}\n`);
  bundles.push(yamlFile);
}
run(['lint', '--config', config, ...bundles]);
process.stdout.write(`bundled ${bundles.length} API(s) into specs/dist\n`);
