// @ts-check
// Redocly rule `mall/record-reference` (of the plugin in mall-plugin.js): an `x-refers-to` (a field
// naming another record; specs/README.md, "Extensions") names a resource the sandbox knows and only
// exclusions it knows, and an `x-per-shop` is an object (its `x-provenance` is the provenance rule's).
// `@mall-api/spec-model`'s `recordReferencesOf` reads the same declarations and its tests hold its
// lists equal to these.

/** The resources a field can name. */
export const referencedResources = ['product', 'category', 'main-group'];
/** What a referring field may not name although the record exists. */
export const referenceExclusions = ['self', 'bundle'];

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The problems of one `x-refers-to`, as messages (none when it reads). @param {unknown} rule */
export function recordReferenceProblems(rule) {
  if (!isObject(rule)) return ['x-refers-to is an object: {resource, except?, top-level?, x-provenance}.'];
  const fields = /** @type {Record<string, unknown>} */ (rule);
  const problems = [];
  if (typeof fields.resource !== 'string' || !referencedResources.includes(fields.resource))
    problems.push(`x-refers-to.resource must be one of ${referencedResources.join(', ')}.`);
  const except = fields.except ?? [];
  if (!Array.isArray(except) || except.some((item) => !referenceExclusions.includes(item)))
    problems.push(`x-refers-to.except lists some of ${referenceExclusions.join(', ')}.`);
  return problems;
}

/** @type {() => Record<string, unknown>} */
export function RecordReference() {
  return {
    any: {
      /**
       * @param {unknown} node
       * @param {{ report: (problem: { message: string, location?: unknown }) => void, location: { child: (path: string[]) => unknown } }} ctx
       */
      enter(node, ctx) {
        if (!isObject(node)) return;
        const fields = /** @type {Record<string, unknown>} */ (node);
        if (fields['x-refers-to'] !== undefined)
          for (const message of recordReferenceProblems(fields['x-refers-to']))
            ctx.report({ message, location: ctx.location.child(['x-refers-to']) });
        if (fields['x-per-shop'] !== undefined && !isObject(fields['x-per-shop']))
          ctx.report({
            message: 'x-per-shop is an object holding its x-provenance.',
            location: ctx.location.child(['x-per-shop']),
          });
      },
    },
  };
}
