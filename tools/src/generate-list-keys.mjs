#!/usr/bin/env node
// Generates `src/generated/list-keys.ts` for a client package from its API's bundled spec: for
// each GET operation whose 200 body is an object holding one array, the key of that array, and
// whether the operation takes `offset` (can be paged). Clients read it at run time, so their
// paging cannot drift from the spec.
//   node tools/src/generate-list-keys.mjs <api> <output-file>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [api, output] = process.argv.slice(2);
if (!api || !output) throw new Error('usage: generate-list-keys.mjs <api> <output-file>');
const spec = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'specs', 'dist', `${api}.openapi.json`), 'utf8'),
);

const resolve = (node) => {
  let current = node;
  while (current?.$ref)
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((n, k) => n?.[k], spec);
  return current;
};

const entries = [];
for (const [path, item] of Object.entries(spec.paths)) {
  const get = resolve(item).get;
  if (!get) continue;
  const schema = resolve(resolve(get.responses?.['200'])?.content?.['application/json']?.schema);
  const arrays = Object.entries(schema?.properties ?? {}).filter(
    ([, property]) => resolve(property)?.type === 'array',
  );
  if (arrays.length !== 1) continue;
  const pageable = (get.parameters ?? []).map(resolve).some((p) => p.name === 'offset' && p.in === 'query');
  entries.push([path, arrays[0][0], pageable]);
}
entries.sort(([a], [b]) => a.localeCompare(b));
const body = entries
  .map(([path, key, pageable]) => `  '${path}': { key: '${key}', pageable: ${pageable} },`)
  .join('\n');
mkdirSync(dirname(output), { recursive: true });
writeFileSync(
  output,
  `// Generated from specs/dist/${api}.openapi.json by tools/src/generate-list-keys.mjs. Do not edit.\n` +
    `export const listEndpoints = {\n${body}\n} as const;\n`,
);
process.stdout.write(`${entries.length} list endpoints → ${output}\n`);
