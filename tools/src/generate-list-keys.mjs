#!/usr/bin/env node
// Generates `src/generated/list-keys.ts` for a client package from its API's bundled spec: for
// each GET operation whose 200 body is an object holding one array, the key of that array, whether
// the operation takes `offset` (can be paged), the largest `offset` and `limit` it accepts (the
// parameters' `maximum`, null when none is published), and its keyset cursor, if any: a
// `since_<field>` query parameter that continues after the record whose `<field>` it names, with
// the parameters it cannot be combined with (`x-mutually-exclusive`). Clients read it at run
// time, so their paging cannot drift from the spec.
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

/** The keyset cursor of a list operation: `since_<field>` where `<field>` is a property of the records. */
const cursorOf = (operation, queryParameters, recordSchema) => {
  const since = queryParameters.find(
    (p) => p.name.startsWith('since_') && p.name.slice('since_'.length) in (recordSchema?.properties ?? {}),
  );
  if (!since) return null;
  const excludes = (operation['x-mutually-exclusive'] ?? [])
    .filter((pair) => Array.isArray(pair) && pair.includes(since.name))
    .map((pair) => pair.find((name) => name !== since.name))
    .filter((name) => typeof name === 'string');
  return { parameter: since.name, field: since.name.slice('since_'.length), excludes };
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
  const [key, arraySchema] = arrays[0];
  const query = (get.parameters ?? []).map(resolve).filter((p) => p.in === 'query');
  const offset = query.find((p) => p.name === 'offset');
  const limit = query.find((p) => p.name === 'limit');
  const maximum = (parameter) => {
    const value = resolve(parameter?.schema)?.maximum;
    return typeof value === 'number' ? value : null;
  };
  entries.push({
    path,
    key,
    pageable: offset !== undefined,
    maxOffset: maximum(offset),
    maxLimit: maximum(limit),
    cursor: cursorOf(get, query, resolve(resolve(arraySchema)?.items)),
  });
}
entries.sort((a, b) => a.path.localeCompare(b.path));
const literal = (value) =>
  value === null
    ? 'null'
    : `{ parameter: '${value.parameter}', field: '${value.field}', excludes: [${value.excludes.map((n) => `'${n}'`).join(', ')}] }`;
const body = entries
  .map(
    (e) =>
      `  '${e.path}': {\n    key: '${e.key}',\n    pageable: ${e.pageable},\n    maxOffset: ${e.maxOffset},\n` +
      `    maxLimit: ${e.maxLimit},\n    cursor: ${literal(e.cursor)},\n  },`,
  )
  .join('\n');
mkdirSync(dirname(output), { recursive: true });
writeFileSync(
  output,
  `// Generated from specs/dist/${api}.openapi.json by tools/src/generate-list-keys.mjs. Do not edit.\n` +
    `export const listEndpoints = {\n${body}\n} as const;\n`,
);
process.stdout.write(`${entries.length} list endpoints → ${output}\n`);
