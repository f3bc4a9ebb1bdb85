// The meaning of the rule extensions between or on query parameters (specs/README.md,
// "Extensions"), read once for an operation: `x-mutually-exclusive` pairs on the operation,
// `x-not-less-than: {field}` on the upper bound of a range, `x-max-values-per-key: {maximum}` on a
// `key:value` comma list, `x-requires-one-of` (`{ value: [parameters] }`) on a comma list and
// the attributes an `<attribute>:<value>` filter may name (`x-query`). The mock's check, the conformance
// runner's cases, the contract hooks and the clients' pagers all read the rules through it.
// Checking a request against them is the caller's.
import { isJsonObject } from './json-document.js';
import type { OperationEntry } from './operation-index.js';

/** A parameter that may not be below a sibling (`x-not-less-than`). */
export interface OrderedParameters {
  /** The parameter that must not be smaller. */
  readonly upper: string;
  readonly lower: string;
}

/** With `name` holding `value`, one of `oneOf` must be given (`x-requires-one-of`). */
export interface ValueRequirement {
  readonly name: string;
  readonly value: string;
  readonly oneOf: readonly string[];
}

/** The rules between or on an operation's parameters. */
export interface ParameterRules {
  /** Pairs that cannot be combined (`x-mutually-exclusive`). */
  readonly mutuallyExclusive: readonly (readonly [string, string])[];
  /** Upper bounds of ranges and their lower sibling (`x-not-less-than`; the sibling exists). */
  readonly notLessThan: readonly OrderedParameters[];
  /** At most `maximum` items per key of a `key:value` list (`x-max-values-per-key`). */
  readonly maxValuesPerKey: readonly { readonly name: string; readonly maximum: number }[];
  readonly requiresOneOf: readonly ValueRequirement[];
  /** The attributes the items of an `<attribute>:<value>` filter may name (`x-query.attributes`). */
  readonly attributeFilters: readonly { readonly name: string; readonly attributes: readonly string[] }[];
}

/** Whether an operation states none of the rules. */
export const hasNoParameterRules = (rules: ParameterRules): boolean =>
  Object.values(rules).every((list: readonly unknown[]) => list.length === 0);

/** The parameter rules `operation` states. */
export function parameterRulesOf(operation: OperationEntry): ParameterRules {
  const names = new Set(operation.parameters.map((p) => p.name));
  const declared = operation.extensions['x-mutually-exclusive'];
  const on = <T>(read: (extension: Record<string, unknown>, name: string) => T[], key: string): T[] =>
    operation.parameters.flatMap(({ name, extensions }) => {
      const extension = extensions[key];
      return isJsonObject(extension) ? read(extension, name) : [];
    });
  return {
    mutuallyExclusive: (Array.isArray(declared) ? declared : []).flatMap((pair) =>
      Array.isArray(pair) && pair.length === 2 ? [[String(pair[0]), String(pair[1])] as const] : [],
    ),
    notLessThan: on(
      ({ field }, upper) => (typeof field === 'string' && names.has(field) ? [{ upper, lower: field }] : []),
      'x-not-less-than',
    ),
    maxValuesPerKey: on(
      ({ maximum }, name) => (typeof maximum === 'number' ? [{ name, maximum }] : []),
      'x-max-values-per-key',
    ),
    requiresOneOf: on(
      (rule, name) =>
        Object.entries(rule).flatMap(([value, oneOf]) =>
          Array.isArray(oneOf) && oneOf.length > 0 && !value.startsWith('x-')
            ? [{ name, value, oneOf: oneOf.map(String) }]
            : [],
        ),
      'x-requires-one-of',
    ),
    attributeFilters: on(
      ({ match, attributes }, name) =>
        match === 'attribute-value' && Array.isArray(attributes)
          ? [{ name, attributes: attributes.map(String) }]
          : [],
      'x-query',
    ),
  };
}
