// @ts-check
// Redocly plugin `mall`: the rule `rule-provenance` fails the lint when a rule extension (the
// machine-readable rules the mock, the clients and the docs read; specs/README.md "Extensions")
// does not say where its fact comes from. An object-valued rule extension carries its own
// `x-provenance`; a scalar or list one (`x-mutually-exclusive`) is covered by an `x-provenance` on
// the node that holds it. Every `x-provenance` is `seed`, `reference` or `inferred`.

/** The rule extensions: every one must state its provenance. */
const ruleExtensions = [
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
  'x-filter',
];
const provenances = ['seed', 'reference', 'inferred'];

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** @type {() => Record<string, unknown>} */
function RuleProvenance() {
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
  };
}

export default function mallPlugin() {
  return { id: 'mall', rules: { oas3: { 'rule-provenance': RuleProvenance } } };
}
