#!/usr/bin/env node
// @ts-check
// Test support: lints packed packages in one process as the `publint --strict` and `attw` commands
// lint each, so that the install test checks every tarball without starting two commands (each
// loading TypeScript) per package. publint (strict, every level) runs over the tarball's own files
// and reports what the command prints (nothing: "All good!"); @arethetypeswrong/core analyses the
// same tarball, and a run fails by the CLI's own exit rule (`getExitCode`) under the CLI's own
// profiles (`node16` leaves out node10, `esm-only` node16 from CommonJS too). An entry point with a
// CommonJS build (`require` in its target) is checked under `node16` (no subpath exports in node10);
// an ES-only one (loaded by require() only where Node can require an ES module) under `esm-only`; a
// package with both kinds gets two runs, each over its own entry points (`--entrypoints`).
// `node package-lint.mjs <tarball>…` prints, as JSON, one result per tarball. Run as its own
// process (not imported by a test): attw's packages list their TypeScript sources under a
// `development` condition, which a test run's resolver would pick. Not for production use.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getExitCode } from '@arethetypeswrong/cli/internal/getExitCode';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

/**
 * @typedef {{ profile: 'node16' | 'esm-only', entrypoints?: string[], problems?: string }} AttwRun
 * `problems` (every problem the analysis found, as JSON) is set when the run fails.
 * @typedef {{ tarball: string, name: string, publint: string[], attw: AttwRun[] }} PackageLint
 */

/** The CLI's profiles (what each leaves out), from the CLI itself: its package does not export them. */
const cli = dirname(createRequire(import.meta.url).resolve('@arethetypeswrong/cli/package.json'));
const { profiles } = /** @type {{ profiles: Record<string, { ignoreResolutions: any[] }> }} */ (
  await import(pathToFileURL(join(cli, 'dist', 'profiles.js')).href)
);

/**
 * The attw runs a package's `exports` need (see the header).
 * @param {{ exports?: Record<string, unknown> }} manifest
 * @returns {AttwRun[]}
 */
export function attwRuns(manifest) {
  const exported = Object.entries(manifest.exports ?? {}).filter(([entry]) => entry !== './package.json');
  /** @param {boolean} withRequire */
  const entries = (withRequire) =>
    exported
      .filter(([, target]) => JSON.stringify(target).includes('"require"') === withRequire)
      .map(([entry]) => entry);
  const [dual, esmOnly] = [entries(true), entries(false)];
  if (dual.length === 0) return [{ profile: 'esm-only' }];
  if (esmOnly.length === 0) return [{ profile: 'node16' }];
  return [
    { profile: 'node16', entrypoints: dual },
    { profile: 'esm-only', entrypoints: esmOnly },
  ];
}

/**
 * Lints one tarball.
 * @param {string} tarball
 * @returns {Promise<PackageLint>}
 */
export async function lintTarball(tarball) {
  const data = readFileSync(tarball);
  const { messages, pkg } = await publint({
    strict: true,
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
  });
  const attwPackage = createPackageFromTarballData(new Uint8Array(data));
  const manifest = JSON.parse(attwPackage.readFile(`/node_modules/${attwPackage.packageName}/package.json`));
  /** @type {AttwRun[]} */
  const attw = [];
  for (const run of attwRuns(manifest)) {
    const analysis = await checkPackage(attwPackage, run.entrypoints ? { entrypoints: run.entrypoints } : {});
    const failed =
      getExitCode(analysis, { ignoreResolutions: profiles[run.profile]?.ignoreResolutions }) !== 0;
    attw.push(
      failed ? { ...run, problems: JSON.stringify('problems' in analysis ? analysis.problems : []) } : run,
    );
  }
  return {
    tarball,
    name: attwPackage.packageName,
    publint: messages.map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false })}`),
    attw,
  };
}

if (import.meta.filename === process.argv[1]) {
  /** @type {PackageLint[]} */
  const results = [];
  for (const tarball of process.argv.slice(2)) results.push(await lintTarball(tarball));
  process.stdout.write(`${JSON.stringify(results)}\n`);
}
