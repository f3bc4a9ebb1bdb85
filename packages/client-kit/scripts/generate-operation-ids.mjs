#!/usr/bin/env node
// @ts-check
// Generates `src/generated/operation-ids.ts` for a client package: the spec's operationId of every
// operation, by path template and then upper-case method, read from the API's bundle through
// @mall-api/spec-model. The client names the operation in its errors and events with it, so the
// names cannot drift from the spec.
//   node ../client-kit/scripts/generate-operation-ids.mjs <api> <output-file>
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { apiNames, loadSpecSync } from '@mall-api/spec-model';

const [api, output] = process.argv.slice(2);
if (!apiNames.includes(/** @type {never} */ (api)) || !output) {
  throw new Error(`usage: generate-operation-ids.mjs <${apiNames.join('|')}> <output-file>`);
}
const model = loadSpecSync(/** @type {import('@mall-api/spec-model').ApiName} */ (api));
/** @type {Map<string, string[]>} */
const byPath = new Map();
for (const { pathTemplate, method, operationId } of model.operations) {
  byPath.set(pathTemplate, [
    ...(byPath.get(pathTemplate) ?? []),
    `${method.toUpperCase()}: '${operationId}'`,
  ]);
}
const entries = [...byPath]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([path, ids]) => `  '${path}': { ${ids.sort().join(', ')} },`);
mkdirSync(dirname(output), { recursive: true });
writeFileSync(
  output,
  `// Generated from specs/dist/${api}.openapi.json by packages/client-kit/scripts/generate-operation-ids.mjs. Do not edit.\n` +
    `export const operationIds: Readonly<Record<string, Readonly<Record<string, string>>>> = {\n${entries.join('\n')}\n};\n`,
);
process.stdout.write(`${model.operations.length} operation ids → ${output}\n`);
