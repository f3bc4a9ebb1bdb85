#!/usr/bin/env node
// Bundles every API listed in redocly.yaml into specs/dist/<api>.openapi.{yaml,json} with the
// Redocly CLI, then lints the bundles too (the source tree is linted by `npm run lint`), each with
// the rules its API turns off in redocly.yaml left out, as they are for its source.
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

/** The `apis:` entries of redocly.yaml. */
const apiEntries = () => YAML.parse(readFileSync(config, 'utf8')).apis ?? {};

/** API names declared under `apis:` in redocly.yaml. */
export function listApis() {
  return Object.keys(apiEntries());
}

/**
 * `--skip-rule` arguments for the rules an API turns off.
 * @param {string} api
 */
function skippedRules(api) {
  const rules = apiEntries()[api]?.rules ?? {};
  return Object.keys(rules).flatMap((rule) => (rules[rule] === 'off' ? ['--skip-rule', rule] : []));
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
/** @type {string[]} */
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
// One lint run per set of skipped rules (usually one for every platform API, one for the control API).
/** @type {Map<string, string[]>} */
const lintGroups = new Map();
for (const [index, api] of listApis().entries()) {
  const key = JSON.stringify(skippedRules(api));
  lintGroups.set(key, [...(lintGroups.get(key) ?? []), bundles[index] ?? '']);
}
for (const [skipped, files] of lintGroups)
  run(['lint', '--config', config, ...JSON.parse(skipped), ...files]);
process.stdout.write(`bundled ${bundles.length} API(s) into specs/dist\n`);
