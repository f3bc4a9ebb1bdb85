// @ts-check
// Redocly rule `mall/rule-provenance` (of the plugin in mall-plugin.js): fails the lint when a rule extension (the
// machine-readable rules the mock, the clients and the docs read; specs/README.md "Extensions")
// does not say where its fact comes from. An object-valued rule extension carries its own
// `x-provenance`; a scalar or list one (`x-mutually-exclusive`) is covered by an `x-provenance` on
// the node that holds it. Every `x-provenance` is `seed`, `reference` or `inferred`. A schema of a
// request body that states a rule by a schema keyword no plain field description gives
// (`if`/`then`, `dependentRequired`, `minProperties`, `not`) carries `x-provenance` beside it.

/** The rule extensions: every one must state its provenance. */
const ruleExtensions = [
  'x-api-versions',
  'x-rate-limit',
  'x-https-only',
  'x-scope-aliases',
  'x-token-lifetimes',
  'x-not-less-than',
  'x-mutually-exclusive',
  'x-requires-one-of',
  'x-max-values-per-key',
  'x-decimal-maximum',
  'x-joined-max-length',
  'x-max-value-combinations',
  'x-subset-of',
  'x-query',
  'x-computed',
  'x-refers-to',
  'x-per-shop',
  'x-webhook-delivery',
];
const provenances = ['seed', 'reference', 'inferred'];
/** The schema keywords that state a rule in a request, each needing a provenance on its schema. */
const schemaRuleKeywords = ['if', 'dependentRequired', 'minProperties', 'not'];

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * @typedef {{ child: (path: string[]) => Location }} Location
 * @typedef {{ report: (problem: { message: string, location?: unknown }) => void, location: Location, resolve: (node: unknown) => { node: unknown, location?: Location } }} RuleContext
 */

/** @type {() => Record<string, unknown>} */
export function RuleProvenance() {
  return {
    any: {
      /**
       * @param {unknown} node
       * @param {{ report: (problem: { message: string, location?: unknown }) => void, location: { child: (path: string[]) => unknown } }} ctx
       */
      enter(node, ctx) {
        if (!isObject(node)) return;
        const fields = /** @type {Record<string, unknown>} */ (node);
        const check = (/** @type {unknown} */ value, /** @type {string[]} */ path) => {
          if (value === undefined)
            ctx.report({
              message: `${path[0]} states a rule without x-provenance (seed, reference or inferred).`,
              location: ctx.location.child(path),
            });
          else if (typeof value !== 'string' || !provenances.includes(value))
            ctx.report({
              message: `x-provenance must be one of ${provenances.join(', ')}, not ${JSON.stringify(value)}.`,
              location: ctx.location.child(path),
            });
        };
        for (const key of ruleExtensions) {
          const rule = fields[key];
          if (rule === undefined) continue;
          if (isObject(rule))
            check(/** @type {Record<string, unknown>} */ (rule)['x-provenance'], [key, 'x-provenance']);
          else check(fields['x-provenance'], [key]);
        }
        if (fields['x-provenance'] !== undefined) check(fields['x-provenance'], ['x-provenance']);
      },
    },
    RequestBody: {
      Schema: {
        /**
         * Walks the request schema and its sub-schemas (through `$ref`s, each once).
         * @param {Record<string, unknown>} schema
         * @param {RuleContext} ctx
         */
        enter(schema, ctx) {
          const seen = new Set();
          /** @param {unknown} node @param {Location} location */
          const walk = (node, location) => {
            if (!isObject(node)) return;
            const fields = /** @type {Record<string, unknown>} */ (node);
            if (typeof fields.$ref === 'string') {
              const resolved = ctx.resolve(fields);
              if (resolved.node !== undefined && !seen.has(resolved.node)) {
                seen.add(resolved.node);
                walk(resolved.node, resolved.location ?? location);
              }
              return;
            }
            if (fields['x-provenance'] === undefined)
              for (const keyword of schemaRuleKeywords)
                if (fields[keyword] !== undefined)
                  ctx.report({
                    message: `${keyword} states a request rule without x-provenance (seed, reference or inferred) on its schema.`,
                    location: location.child([keyword]),
                  });
            for (const [key, value] of Object.entries(fields)) {
              if (['properties', 'patternProperties', 'dependentSchemas'].includes(key) && isObject(value))
                for (const [name, sub] of Object.entries(/** @type {Record<string, unknown>} */ (value)))
                  walk(sub, location.child([key, name]));
              else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(key) && Array.isArray(value))
                for (const [index, sub] of value.entries()) walk(sub, location.child([key, String(index)]));
              else if (['items', 'not', 'if', 'then', 'else', 'additionalProperties'].includes(key))
                walk(value, location.child([key]));
            }
          };
          walk(schema, ctx.location);
        },
      },
    },
  };
}
