#!/usr/bin/env node
// @ts-check
// `npm run release:notes`: writes, into the notes of each API's pending description revision
// (specs/releases/<api>/<info.version>.md), every change since the last released bundle — the full
// structural diff, generated between markers — keeping what people wrote around it. The
// breaking-change check fails until this was run after the last change. `--root <dir>` works on
// another copy of the repository layout.
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { writePendingNotes } from './api-releases/pending-notes.mjs';

const { values } = parseArgs({ options: { root: { type: 'string' } } });
for (const api of apiNames) {
  const written = await writePendingNotes(api, values.root);
  process.stdout.write(`${written}\n`);
}
