// Rules a JSON Schema cannot express about one parameter alone, as the spec model's
// `parameterRulesOf` reads them (`x-mutually-exclusive`, `x-not-less-than`, `x-max-values-per-key`,
// `x-requires-one-of`, an `attribute-value` filter's attributes). An operation's rules are worked out
// once; checking a request then only looks at the parameters involved. Each broken rule is a
// violation naming the parameter, with its rule name (request-rules.ts) for a caller that asks.
import {
  hasNoParameterRules,
  type OperationEntry,
  parameterRulesOf,
  parameterValue,
} from '@mall-api/spec-model';
import type { Violation } from '../http/error-envelope.js';
import { type BrokenRule, extensionRuleName as ruleName } from './request-rules.js';

type Query = Readonly<Record<string, string | string[]>>;

/** Checks one request's query against an operation's cross-parameter rules (`broken` hears each broken rule's name). */
export type CrossParameterCheck = (query: Query, broken?: BrokenRule) => Violation[];

const first = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;
/** A number, or a date (`YYYY-MM-DD` or a date-time) as ms since the epoch. */
const comparable = (raw: string): number => {
  const number = Number(raw);
  return raw.trim() !== '' && Number.isFinite(number) ? number : Date.parse(raw);
};

/** Works out an operation's cross-parameter rules once and returns the check for its requests. */
export function compileCrossParameterRules(operation: OperationEntry): CrossParameterCheck {
  const rules = parameterRulesOf(operation);
  if (hasNoParameterRules(rules)) return () => [];
  const { mutuallyExclusive, notLessThan, maxValuesPerKey, requiresOneOf, attributeFilters } = rules;
  const parameters = new Map(operation.parameters.map((parameter) => [parameter.name, parameter]));
  /** The items of a list parameter over every occurrence of its key (`a=1,2&a=3` → 1, 2, 3). */
  const listItems = (name: string, raw: string | string[] | undefined): string[] => {
    const parameter = parameters.get(name);
    if (raw === undefined || !parameter) return [];
    const value = parameterValue(parameter, parameter.schema, raw);
    return (Array.isArray(value) ? value : [value]).map(String);
  };
  return (query, broken) => {
    const violations: Violation[] = [];
    /** Adds a violation of the rule named `rule` by the query parameter `name`. */
    const add = (rule: string, name: string, message: string) => {
      violations.push({ location: 'query', name, message });
      broken?.(rule);
    };
    for (const [a, b] of mutuallyExclusive) {
      if (query[a] !== undefined && query[b] !== undefined)
        add(ruleName.mutuallyExclusive(a, b), b, `cannot be combined with ${a}`);
    }
    for (const { upper, lower } of notLessThan) {
      const high = first(query[upper]);
      const low = first(query[lower]);
      if (high === undefined || low === undefined) continue;
      const [h, l] = [comparable(high), comparable(low)];
      if (Number.isFinite(h) && Number.isFinite(l) && h < l)
        add(ruleName.notLessThan(upper), upper, `must not be less than ${lower}`);
    }
    for (const { name, value, oneOf } of requiresOneOf) {
      const values = listItems(name, query[name]);
      if (values.includes(value) && !oneOf.some((other) => query[other] !== undefined))
        add(
          ruleName.requiresOneOf(name, value),
          oneOf[0] as string,
          `is required with ${name}=${value}${oneOf.length > 1 ? ` (or ${oneOf.slice(1).join(', ')})` : ''}`,
        );
    }
    for (const { name, maximum: max } of maxValuesPerKey) {
      const counts = new Map<string, number>();
      for (const item of listItems(name, query[name])) {
        const key = item.split(':')[0] ?? '';
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      for (const [key, count] of counts)
        if (count > max)
          add(
            ruleName.maxValuesPerKey(name),
            name,
            `has ${count} values for tag key ${key}; at most ${max} are allowed`,
          );
    }
    for (const { name, attributes } of attributeFilters) {
      const items = listItems(name, query[name]);
      const unknown = items.map((item) => item.split(':')[0] ?? '').find((key) => !attributes.includes(key));
      if (unknown !== undefined)
        add(
          ruleName.attributes(name),
          name,
          `names the attribute ${unknown}, which is not one of ${attributes.join(', ')}`,
        );
    }
    return violations;
  };
}
