#!/usr/bin/env node
// @ts-check
// `npm run check:breaking`: compares each API's bundle (specs/dist, built) with its last released
// bundle (specs/releases/<api>/) and fails on an undeclared breaking change, printing each in plain
// words with its location. `--root <dir>` checks another copy of the repository layout.
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { checkApi, formatCheck, passes } from './api-releases/breaking-check.mjs';

const { values } = parseArgs({
  options: { root: { type: 'string' }, api: { type: 'string', multiple: true } },
});
let failed = false;
for (const api of values.api ?? apiNames) {
  const check = await checkApi(api, values.root);
  process.stdout.write(formatCheck(check));
  failed ||= !passes(check);
}
process.exit(failed ? 1 : 0);
