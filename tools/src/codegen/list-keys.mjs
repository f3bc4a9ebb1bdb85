// @ts-check
// The list keys of a client (`src/generated/list-keys.ts`), from its API's spec model: for each GET
// operation whose 200 body is an object holding one array, the key of that array, whether the
// operation takes `offset` (can be paged), the largest `offset` and `limit` it accepts (the
// parameters' `maximum`, null when none is published), and its keyset cursor, if any: a
// `since_<field>` query parameter that continues after the record whose `<field>` it names, with
// the parameters it cannot be combined with (`x-mutually-exclusive`, as `parameterRulesOf` reads
// it). Clients read it at run time, so their paging cannot drift from the spec.
import { parameterRulesOf } from '@mall-api/spec-model';

/** @typedef {import('@mall-api/spec-model').SpecModel} SpecModel */
/** @typedef {import('@mall-api/spec-model').OperationEntry} OperationEntry */
/** @typedef {import('@mall-api/spec-model').OperationParameter} OperationParameter */
/** @typedef {import('@mall-api/spec-model').JsonObject} JsonObject */
/** @typedef {{ parameter: string, field: string, excludes: string[] }} Cursor */

/**
 * The keyset cursor of a list operation: `since_<field>` where `<field>` is a property of the records.
 * @param {SpecModel} spec
 * @param {OperationEntry} operation
 * @param {OperationParameter[]} queryParameters
 * @param {JsonObject | undefined} recordSchema
 * @returns {Cursor | null}
 */
const cursorOf = (spec, operation, queryParameters, recordSchema) => {
  const properties = spec.resolveOptional(recordSchema?.properties) ?? {};
  const since = queryParameters.find(
    (p) => p.name.startsWith('since_') && p.name.slice('since_'.length) in properties,
  );
  if (!since) return null;
  const excludes = parameterRulesOf(operation)
    .mutuallyExclusive.filter((pair) => pair.includes(since.name))
    .map(([a, b]) => (a === since.name ? b : a));
  return { parameter: since.name, field: since.name.slice('since_'.length), excludes };
};

/**
 * A parameter's published `maximum`, or null.
 * @param {OperationParameter | undefined} parameter
 */
const maximum = (parameter) => {
  const value = parameter?.schema.maximum;
  return typeof value === 'number' ? value : null;
};

/** @param {Cursor | null} value */
const literal = (value) =>
  value === null
    ? 'null'
    : `{ parameter: '${value.parameter}', field: '${value.field}', excludes: [${value.excludes.map((n) => `'${n}'`).join(', ')}] }`;

/**
 * The list operations of an API: path template, operationId, list key, paging bounds and cursor.
 * @param {SpecModel} spec
 */
export function listEndpointsOf(spec) {
  const entries = [];
  for (const operation of spec.operations) {
    if (operation.method !== 'get') continue;
    const content = spec.resolveOptional(spec.resolveOptional(operation.responses['200'])?.content);
    const schema = spec.resolveOptional(spec.resolveOptional(content?.['application/json'])?.schema);
    const properties = spec.resolveOptional(schema?.properties) ?? {};
    const arrays = Object.entries(properties).filter(
      ([, property]) => spec.resolveOptional(property)?.type === 'array',
    );
    const [only] = arrays;
    if (arrays.length !== 1 || !only) continue;
    const [key, arraySchema] = only;
    const query = operation.parameters.filter((p) => p.in === 'query');
    const offset = query.find((p) => p.name === 'offset');
    const records = spec.resolveOptional(spec.resolveOptional(arraySchema)?.items);
    entries.push({
      path: operation.pathTemplate,
      operationId: operation.operationId,
      key,
      pageable: offset !== undefined,
      maxOffset: maximum(offset),
      maxLimit: maximum(query.find((p) => p.name === 'limit')),
      cursor: cursorOf(spec, operation, query, records),
    });
  }
  return entries;
}

/**
 * The text of `list-keys.ts` for one API.
 * @param {SpecModel} spec
 */
export function listKeysModule(spec) {
  const entries = listEndpointsOf(spec);
  entries.sort((a, b) => a.path.localeCompare(b.path));
  const body = entries
    .map(
      (e) =>
        `  '${e.path}': {\n    key: '${e.key}',\n    pageable: ${e.pageable},\n    maxOffset: ${e.maxOffset},\n` +
        `    maxLimit: ${e.maxLimit},\n    cursor: ${literal(e.cursor)},\n  },`,
    )
    .join('\n');
  return `export const listEndpoints = {\n${body}\n} as const;\n`;
}
