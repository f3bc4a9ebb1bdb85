// @ts-check
// Redocly rule `mall/query-meaning`: every query parameter declares its meaning in `x-query`
// (specs/README.md, "Query parameter meanings"), so the sandbox's filters, the conformance runner
// and the docs derive from data and a new parameter cannot silently mean nothing. It checks the
// shape only: a known role, and what that role needs (a filter's field and comparison, a
// modifier's filter, …); `@mall-api/spec-model`'s `queryMeaningsOf` reads the same declarations
// and its tests hold its lists of roles and comparisons equal to these.

/** The roles a query parameter can have. */
export const queryRoles = [
  'filter',
  'modifier',
  'subset',
  'page-size',
  'page-offset',
  'page-after',
  'sort',
  'order',
  'projection',
  'embed',
  'shop',
  'mall',
  'period-start',
  'period-end',
  'granularity',
  'authorization',
];
/** How a filter compares. */
export const filterMatches = [
  'equals',
  'equals-ci',
  'equals-number',
  'contains-ci',
  'min',
  'max',
  'date-from',
  'date-to',
  'flag',
  'has-any',
  'has-any-ci',
  'greater-than',
  'empty',
  'non-empty',
  'attribute-value',
  'key-value',
];

/** The keys (text) each role or comparison needs beside `role`. */
const needs = /** @type {Record<string, string[]>} */ ({
  modifier: ['of', 'effect'],
  subset: ['by'],
  projection: ['keeps'],
  'page-after': ['field'],
});

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The problems of one declaration, as messages (none when it reads). @param {unknown} rule */
export function queryMeaningProblems(rule) {
  if (!isObject(rule)) return ['a query parameter declares its meaning in x-query (specs/README.md).'];
  const fields = /** @type {Record<string, unknown>} */ (rule);
  const role = fields.role;
  if (typeof role !== 'string' || !queryRoles.includes(role))
    return [`x-query.role must be one of ${queryRoles.join(', ')}.`];
  const problems = (needs[role] ?? [])
    .filter((key) => typeof fields[key] !== 'string')
    .map((key) => `x-query with role ${role} needs ${key}.`);
  if (role !== 'filter') return problems;
  const match = fields.match;
  if (typeof match !== 'string' || !filterMatches.includes(match))
    return [`x-query.match must be one of ${filterMatches.join(', ')}.`];
  if (match === 'attribute-value') {
    if (!Array.isArray(fields.attributes) || fields.attributes.length === 0)
      problems.push('x-query with match attribute-value lists its attributes.');
  } else if (typeof fields.field !== 'string' || fields.field === '')
    problems.push('x-query of a filter names the record field it selects on (field).');
  if (match === 'key-value')
    for (const key of ['key', 'value'])
      if (typeof fields[key] !== 'string') problems.push(`x-query with match key-value needs ${key}.`);
  return problems;
}

/** @type {() => Record<string, unknown>} */
export function QueryMeaning() {
  return {
    Parameter: {
      /**
       * @param {Record<string, unknown>} parameter
       * @param {{ report: (problem: { message: string, location?: unknown }) => void, location: { child: (path: string[]) => unknown } }} ctx
       */
      enter(parameter, ctx) {
        if (parameter.in !== 'query') return;
        for (const message of queryMeaningProblems(parameter['x-query']))
          ctx.report({
            message: `${String(parameter.name)}: ${message}`,
            location: ctx.location.child(['x-query']),
          });
      },
    },
  };
}
