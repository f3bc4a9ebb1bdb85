#!/usr/bin/env node
// @ts-check
// `npm run changelog:api`: writes docs/changelogs/<api>.md for each API from its released bundles
// (specs/releases/<api>/). `--check` writes nothing and fails when a committed changelog is out of
// date; `--root <dir>` works on another copy of the repository layout.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { repositoryRoot } from './api-releases/api-releases.mjs';
import { renderChangelog } from './api-releases/changelog.mjs';

const { values } = parseArgs({ options: { root: { type: 'string' }, check: { type: 'boolean' } } });
const root = values.root ?? repositoryRoot;
const directory = join(root, 'docs', 'changelogs');
let stale = false;
for (const api of apiNames) {
  const file = join(directory, `${api}.md`);
  const text = await renderChangelog(api, root);
  const written = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (values.check) {
    if (written !== text) {
      stale = true;
      process.stdout.write(`docs/changelogs/${api}.md is out of date: run npm run changelog:api\n`);
    }
    continue;
  }
  mkdirSync(directory, { recursive: true });
  if (written !== text) writeFileSync(file, text);
  process.stdout.write(`docs/changelogs/${api}.md${written === text ? ' (unchanged)' : ''}\n`);
}
process.exit(stale ? 1 : 0);
