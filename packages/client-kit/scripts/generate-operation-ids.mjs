#!/usr/bin/env node
// @ts-check
// Generates `src/generated/operation-ids.ts` for a client package: the spec's operationId of every
// operation, by path template and then upper-case method, read from the API's bundle through
// @mall-api/spec-model, so the names in the client's errors and events cannot drift from the spec;
// whether the API accepts HTTPS only (its `x-https-only`); and the `User-Agent` the client sends,
// made of the package name and version in the package.json of the working directory (the client's).
//   node ../client-kit/scripts/generate-operation-ids.mjs <api> <output-file>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
/** @type {{ name: string, version: string }} */
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
// A product token allows no `@` or `/`: `@mall-api/admin-client` becomes `mall-api-admin-client`.
const product = manifest.name.replace(/^@/, '').replace('/', '-');
mkdirSync(dirname(output), { recursive: true });
writeFileSync(
  output,
  `// Generated from specs/dist/${api}.openapi.json and package.json by packages/client-kit/scripts/generate-operation-ids.mjs. Do not edit.\n` +
    `export const operationIds: Readonly<Record<string, Readonly<Record<string, string>>>> = {\n${entries.join('\n')}\n};\n` +
    `/** Whether the API accepts HTTPS only (\`x-https-only\`). */\n` +
    `export const httpsOnly = ${model.document['x-https-only'] !== undefined};\n` +
    `/** The \`User-Agent\` of ${manifest.name} ${manifest.version}. */\n` +
    `export const userAgent = '${product}/${manifest.version}';\n`,
);
process.stdout.write(`${model.operations.length} operation ids → ${output}\n`);
