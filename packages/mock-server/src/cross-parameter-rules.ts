// Rules a JSON Schema cannot express about one parameter alone, read from the spec so each API
// states them once (specs/README.md, "Extensions"): `x-mutually-exclusive` pairs on the operation,
// `x-not-less-than: {field}` on the upper bound of a range or period (numbers or dates; the same
// extension the body rules read), `x-max-values-per-key: {maximum}` on a `key:value` comma list,
// `x-requires-one-of` on a comma list (`{ value: [parameters] }`: with that value, one of those
// parameters must be given), and `x-filter.attributes` on an `<attribute>:<value>` comma list (the
// attributes an item may name). The rules of an operation are worked out once; checking a request
// then only looks at the parameters involved. Each broken rule becomes a violation naming the
// parameter.
import { isJsonObject, type OperationEntry } from '@mall-api/spec-model';
import type { Violation } from './error-envelope.js';

type Query = Readonly<Record<string, string | string[]>>;

/** Checks one request's query against an operation's cross-parameter rules. */
export type CrossParameterCheck = (query: Query) => Violation[];

const first = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;
/** A number, or a date (`YYYY-MM-DD` or a date-time) as ms since the epoch. */
/** The items of a comma-list parameter over every occurrence of its key (`a=1,2&a=3` → 1, 2, 3). */
const listItems = (raw: string | string[] | undefined): string[] =>
  (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((value) => value.split(','));

const comparable = (raw: string): number => {
  const number = Number(raw);
  return raw.trim() !== '' && Number.isFinite(number) ? number : Date.parse(raw);
};

interface OrderedPair {
  /** The parameter that must not be smaller. */
  readonly upper: string;
  readonly lower: string;
  readonly message: string;
}

function orderedPairs(operation: OperationEntry): OrderedPair[] {
  const names = new Set(operation.parameters.map((p) => p.name));
  return operation.parameters.flatMap(({ name, extensions }) => {
    const rule = extensions['x-not-less-than'];
    const lower = isJsonObject(rule) ? rule.field : undefined;
    return typeof lower === 'string' && names.has(lower)
      ? [{ upper: name, lower, message: `must not be less than ${lower}` }]
      : [];
  });
}

function perKeyLimits(operation: OperationEntry): { name: string; max: number }[] {
  return operation.parameters.flatMap(({ name, extensions }) => {
    const rule = extensions['x-max-values-per-key'];
    const max = isJsonObject(rule) ? rule.maximum : undefined;
    return typeof max === 'number' ? [{ name, max }] : [];
  });
}

interface ValueRequirement {
  readonly name: string;
  readonly value: string;
  /** At least one of these must be present when `name` contains `value`. */
  readonly oneOf: readonly string[];
}

function valueRequirements(operation: OperationEntry): ValueRequirement[] {
  return operation.parameters.flatMap(({ name, extensions }) => {
    const rule = extensions['x-requires-one-of'];
    if (typeof rule !== 'object' || rule === null) return [];
    return Object.entries(rule).flatMap(([value, oneOf]) =>
      Array.isArray(oneOf) && oneOf.length > 0 && !value.startsWith('x-')
        ? [{ name, value, oneOf: oneOf.map(String) }]
        : [],
    );
  });
}

/** Works out an operation's cross-parameter rules once and returns the check for its requests. */
/** The operation's `x-mutually-exclusive` pairs. */
/** `x-filter` lists on `<attribute>:<value>` comma lists: the attributes an item may name. */
function attributeFilters(operation: OperationEntry): { name: string; attributes: readonly string[] }[] {
  return operation.parameters.flatMap(({ name, extensions }) => {
    const filter = extensions['x-filter'];
    const attributes = isJsonObject(filter) ? filter.attributes : undefined;
    return Array.isArray(attributes) ? [{ name, attributes: attributes.map(String) }] : [];
  });
}

function mutuallyExclusivePairs(operation: OperationEntry): (readonly [string, string])[] {
  const declared = operation.extensions['x-mutually-exclusive'];
  return (Array.isArray(declared) ? declared : []).flatMap((pair) =>
    Array.isArray(pair) && pair.length === 2 ? [[String(pair[0]), String(pair[1])] as const] : [],
  );
}

export function compileCrossParameterRules(operation: OperationEntry): CrossParameterCheck {
  const exclusive = mutuallyExclusivePairs(operation);
  const pairs = orderedPairs(operation);
  const limits = perKeyLimits(operation);
  const requirements = valueRequirements(operation);
  const filters = attributeFilters(operation);
  if (
    exclusive.length === 0 &&
    pairs.length === 0 &&
    limits.length === 0 &&
    requirements.length === 0 &&
    filters.length === 0
  )
    return () => [];
  return (query) => {
    const violations: Violation[] = [];
    for (const [a, b] of exclusive) {
      if (query[a] !== undefined && query[b] !== undefined) {
        violations.push({ location: 'query', name: b, message: `cannot be combined with ${a}` });
      }
    }
    for (const { upper, lower, message } of pairs) {
      const high = first(query[upper]);
      const low = first(query[lower]);
      if (high === undefined || low === undefined) continue;
      const [h, l] = [comparable(high), comparable(low)];
      if (Number.isFinite(h) && Number.isFinite(l) && h < l)
        violations.push({ location: 'query', name: upper, message });
    }
    for (const { name, value, oneOf } of requirements) {
      const values = listItems(query[name]);
      if (values.includes(value) && !oneOf.some((other) => query[other] !== undefined))
        violations.push({
          location: 'query',
          name: oneOf[0] as string,
          message: `is required with ${name}=${value}${oneOf.length > 1 ? ` (or ${oneOf.slice(1).join(', ')})` : ''}`,
        });
    }
    for (const { name, max } of limits) {
      const counts = new Map<string, number>();
      for (const item of listItems(query[name])) {
        const key = item.split(':')[0] ?? '';
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      for (const [key, count] of counts) {
        if (count > max) {
          violations.push({
            location: 'query',
            name,
            message: `has ${count} values for tag key ${key}; at most ${max} are allowed`,
          });
        }
      }
    }
    for (const { name, attributes } of filters) {
      const items = listItems(query[name]);
      const unknown = items.map((item) => item.split(':')[0] ?? '').find((key) => !attributes.includes(key));
      if (unknown !== undefined)
        violations.push({
          location: 'query',
          name,
          message: `names the attribute ${unknown}, which is not one of ${attributes.join(', ')}`,
        });
    }
    return violations;
  };
}
