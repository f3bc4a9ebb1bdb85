// The schema Dredd checks a response body against. Dredd's OpenAPI parser does not read the
// schemas of a 3.1 document, so left alone Dredd only checks that the body has every key of the
// documented example; the example shows one particular record (all attributes present, a list where
// `null` would do too) and is cut down by nothing (`fields`). The hooks give Dredd the response's
// real schema instead, as draft-07 JSON Schema, the newest draft its validator (Gavel) knows: the
// spec's component schemas become `definitions`, and a `$ref` with sibling keywords (which draft 07
// would ignore) is wrapped in `allOf`. Keywords draft 07 does not have are ignored by it, which only
// makes the check more lenient. CommonJS, like the hooks.

const draft07 = 'http://json-schema.org/draft-07/schema#';

/** The schema tree with refs pointing at `definitions` and `$ref` siblings kept in force. */
const toDraft07 = (node) => {
  if (Array.isArray(node)) return node.map(toDraft07);
  if (!node || typeof node !== 'object') return node;
  const converted = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, toDraft07(value)]));
  if (typeof node.$ref !== 'string') return converted;
  const ref = node.$ref.replace(/^#\/components\/schemas\//, '#/definitions/');
  const { $ref: _ref, ...siblings } = converted;
  if (Object.keys(siblings).length === 0) return { $ref: ref };
  return { ...siblings, allOf: [...(siblings.allOf ?? []), { $ref: ref }] };
};

/**
 * Builds the lookup of response schemas for one spec.
 * @param {ReturnType<typeof import('./spec-model.cjs').createSpecModel>} model
 */
function createResponseSchemas(model) {
  const definitions = toDraft07(model.spec.components?.schemas ?? {});
  const cache = new Map();
  return {
    /**
     * The draft-07 schema (JSON text) of the JSON body the operation answers with `status`, or
     * undefined when that response documents no JSON body.
     * @param {Record<string, any>} operation
     * @param {number} status
     */
    bodySchema(operation, status) {
      const key = `${operation.operationId} ${status}`;
      if (!cache.has(key)) {
        const response = model.resolve(operation.responses?.[String(status)]);
        const schema = model.resolve(response?.content?.['application/json'])?.schema;
        cache.set(
          key,
          schema && JSON.stringify({ $schema: draft07, definitions, allOf: [toDraft07(schema)] }),
        );
      }
      return cache.get(key);
    },
  };
}

module.exports = { createResponseSchemas };
