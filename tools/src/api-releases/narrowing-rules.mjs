// @ts-check
// Breaking-change rules Optic's BreakingChangesRuleset leaves out, written as Optic rules on Optic's
// diff: a removed parameter (a client still sending it gets a 422 from a strict server), and a
// narrowed constraint on what a client sends — a lower maximum, a higher minimum, a shorter
// maxLength, a new or changed pattern, fewer items — in a parameter or a request body.
import { OperationRule, RequestRule, RuleError, Ruleset } from '@useoptic/rulesets-base';

/** Upper bounds: a smaller value (or a new bound) narrows what is accepted. */
const upperBounds = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
/** Lower bounds: a larger value (or a new bound) narrows what is accepted. */
const lowerBounds = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];

/**
 * How `after` accepts less than `before`, in words (one entry per narrowed keyword).
 * @param {Record<string, any> | undefined} before
 * @param {Record<string, any> | undefined} after
 * @returns {string[]}
 */
export function narrowedConstraints(before, after) {
  if (!before || !after) return [];
  const found = [];
  for (const keyword of upperBounds) {
    const [was, is] = [before[keyword], after[keyword]];
    if (typeof is === 'number' && (typeof was !== 'number' || is < was))
      found.push(`${keyword} ${typeof was === 'number' ? `lowered from ${was} to ${is}` : `${is} added`}`);
  }
  for (const keyword of lowerBounds) {
    const [was, is] = [before[keyword], after[keyword]];
    if (typeof is === 'number' && (typeof was !== 'number' || is > was))
      found.push(`${keyword} ${typeof was === 'number' ? `raised from ${was} to ${is}` : `${is} added`}`);
  }
  if (typeof after.pattern === 'string' && after.pattern !== before.pattern)
    found.push(
      before.pattern === undefined
        ? `pattern ${after.pattern} added`
        : `pattern changed from ${before.pattern} to ${after.pattern}`,
    );
  return found;
}

/** @param {string} where @param {string[]} narrowed */
const failIfNarrowed = (where, narrowed) => {
  if (narrowed.length > 0) throw new RuleError({ message: `${where} accepts less: ${narrowed.join(', ')}` });
};

const parameterKinds = /** @type {const} */ ([
  ['queryParameter', 'query'],
  ['headerParameter', 'header'],
  ['pathParameter', 'path'],
  ['cookieParameter', 'cookie'],
]);

/** @typedef {{ value: { name: string, schema?: Record<string, any> } }} ParameterFact */

const parameterRules = new OperationRule({
  name: 'prevent parameter removal and narrowing',
  rule: (operation) => {
    for (const [kind, location] of parameterKinds) {
      operation[kind].removed((/** @type {{ value: { name: string } }} */ before) => {
        throw new RuleError({
          message: `${location} parameter '${before.value.name}' was removed; clients still sending it break`,
        });
      });
      operation[kind].changed((/** @type {ParameterFact} */ before, /** @type {ParameterFact} */ after) =>
        failIfNarrowed(
          `${location} parameter '${after.value.name}'`,
          narrowedConstraints(
            /** @type {any} */ (before.value.schema),
            /** @type {any} */ (after.value.schema),
          ),
        ),
      );
    }
  },
});

const requestBodyRules = new RequestRule({
  name: 'prevent request body narrowing',
  rule: (request) => {
    request.body.changed((before, after) =>
      failIfNarrowed(
        `request body ${after.value.contentType}`,
        narrowedConstraints(before.value.flatSchema, after.value.flatSchema),
      ),
    );
    request.property.changed((before, after) =>
      failIfNarrowed(
        `request body property '${after.value.key}'`,
        narrowedConstraints(before.value.flatSchema, after.value.flatSchema),
      ),
    );
  },
});

/** The rules above as one Optic ruleset. */
export const narrowingRuleset = new Ruleset({
  name: 'mall-api narrowing',
  rules: [parameterRules, requestBodyRules],
});
