#!/usr/bin/env node
// @ts-check
// The release flow, the same commands here and in CI:
//   npm run release:version   changesets bumps the packages and writes their changelogs; each API
//                             whose info.version is new is released (bundle kept in
//                             specs/releases/, notes dated) and the API changelogs regenerated
//   npm run release           dry run: the breaking-change check, the API changelogs up to date,
//                             what would be released, `npm publish --dry-run` of each package
//   npm run release -- --publish   the same checks, then `changeset publish` (CI, with a token)
// `--version` is the first step (what `release:version` runs after `changeset version`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { repositoryRoot } from './api-releases/api-releases.mjs';
import { checkApi, formatCheck, passes } from './api-releases/breaking-check.mjs';
import { cutRelease, pendingRelease } from './api-releases/cut-release.mjs';

const { values } = parseArgs({ options: { publish: { type: 'boolean' }, version: { type: 'boolean' } } });
const say = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
/** Runs a command in the repository, its output shown. @param {string} command @param {string[]} args */
const sh = (command, args) => execFileSync(command, args, { cwd: repositoryRoot, stdio: 'inherit' });

say('1. breaking changes against the released API versions');
let broken = false;
for (const api of apiNames) {
  const check = await checkApi(api);
  process.stdout.write(formatCheck(check));
  broken ||= !passes(check);
}
if (broken) process.exit(1);

if (values.version) {
  say('2. API releases');
  const today = new Date().toISOString().slice(0, 10);
  for (const api of apiNames) {
    const cut = cutRelease(api, today);
    say(cut.due ? `${api} ${cut.version} released (${today})` : `${api} ${cut.version}: already released`);
  }
  sh(process.execPath, [join('tools', 'src', 'api-changelog.mjs')]);
  process.exit(0);
}

say('2. API changelogs');
sh(process.execPath, [join('tools', 'src', 'api-changelog.mjs'), '--check']);
for (const api of apiNames) {
  const pending = pendingRelease(api);
  say(
    pending.due
      ? `${api} ${pending.version} is not released yet: npm run release:version will release it${pending.notesWritten ? '' : ` (write its notes in ${pending.notesFile})`}`
      : `${api} ${pending.version}: released`,
  );
}

say('3. packages (changesets)');
// changesets' own command, run directly: npx would start npm first.
sh(join(repositoryRoot, 'node_modules', '.bin', 'changeset'), ['status', '--verbose']);

const rootManifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8'));
/** @type {string[]} */
const published = rootManifest.workspaces.filter(
  (/** @type {string} */ directory) =>
    JSON.parse(readFileSync(join(repositoryRoot, directory, 'package.json'), 'utf8')).private !== true,
);
if (values.publish) {
  say('4. publishing');
  sh('npx', ['changeset', 'publish']);
} else {
  say('4. what would be published (npm publish --dry-run)');
  // One npm for every package (each lists its own tarball), not one npm started per package.
  sh('npm', ['publish', '--dry-run', ...published.flatMap((directory) => ['--workspace', directory])]);
  say('dry run: nothing was published (npm run release -- --publish publishes)');
}
