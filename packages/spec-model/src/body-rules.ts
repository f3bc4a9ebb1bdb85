// The meaning of the rule extensions on JSON request bodies (specs/README.md, "Extensions"), the
// one reading of them that the mock's check and the conformance runner's invalid cases share:
// `x-decimal-maximum` (a decimal string at most a number), `x-not-less-than` (a member not below a
// sibling, numbers, decimal strings or date-times, an omitted member taking its schema `default`),
// `x-joined-max-length` (an array of strings joined by a separator at most N characters),
// `x-max-value-combinations` (the items' value lists combine to at most N) and `x-subset-of` (every
// item also in a sibling array). Each rule found in a schema says where it sits, what breaks it at
// a value, and how to break a valid value. Reporting breaches (status, envelope) is the caller's.
import { isJsonObject, type Json, type JsonObject } from './json-document.js';

/** The rule extensions this module reads, as the spec names them. */
export const bodyRuleKinds = [
  'x-decimal-maximum',
  'x-not-less-than',
  'x-joined-max-length',
  'x-max-value-combinations',
  'x-subset-of',
] as const;
/** One of {@link bodyRuleKinds}. */
export type BodyRuleKind = (typeof bodyRuleKinds)[number];

/** A step from an object to a member, or `*` from an array to each of its items. */
export type BodyStep = string;

/** One way a value breaks a rule: the path below the rule's place that is wrong, and why. */
export interface BodyRuleBreach {
  readonly below: readonly (string | number)[];
  readonly message: string;
}

/** One rule found in a request body schema. */
export interface BodyRule {
  readonly kind: BodyRuleKind;
  /** Steps from the body to the value the rule is about. */
  readonly at: readonly BodyStep[];
  /** How `value` (held by `parent`) breaks the rule; empty when it keeps it. */
  breaches(value: unknown, parent: unknown): BodyRuleBreach[];
  /** A replacement for the valid `value` (held by `parent`) that breaks the rule, when one can be made. */
  broken(value: Json, parent: Json | undefined): Json | undefined;
}

type Fields = Readonly<Record<string, unknown>>;
const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A number, a decimal string or a date-time as a number (NaN when it is none of these). */
function comparable(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : Date.parse(value);
}

/** A value of the kind of `value` (number, decimal string, date-time) that is greater than it. */
function greater(value: unknown): Json | undefined {
  if (typeof value === 'number') return value + 1;
  if (typeof value !== 'string') return undefined;
  const decimal = /^-?\d+(?:\.(\d+))?$/.exec(value);
  if (decimal) return (Number(value) + 1).toFixed(decimal[1]?.length ?? 0);
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  // Keep the written offset: move the date part by a day.
  const day = /^(\d{4}-\d{2}-\d{2})/.exec(value)?.[1];
  if (!day) return undefined;
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return `${next}${value.slice(10)}`;
}

const ruleNumber = (rule: JsonObject, key: string): number | undefined =>
  typeof rule[key] === 'number' ? (rule[key] as number) : undefined;
const ruleString = (rule: JsonObject, key: string): string | undefined =>
  typeof rule[key] === 'string' ? (rule[key] as string) : undefined;
const numberIn = (schema: Json | undefined, key: string): number | undefined =>
  isJsonObject(schema) && typeof schema[key] === 'number' ? (schema[key] as number) : undefined;

type Placed = Omit<BodyRule, 'at'>;

function decimalMaximum(rule: JsonObject): Placed | undefined {
  const ceiling = ruleNumber(rule, 'maximum');
  if (ceiling === undefined) return undefined;
  return {
    kind: 'x-decimal-maximum',
    breaches: (value) =>
      typeof value === 'string' && comparable(value) > ceiling
        ? [{ below: [], message: `must be at most ${ceiling}` }]
        : [],
    broken: (value) => (typeof value === 'string' ? String(Math.floor(ceiling) + 1) : undefined),
  };
}

function joinedMaxLength(rule: JsonObject, schema: JsonObject): Placed | undefined {
  const maximum = ruleNumber(rule, 'maximum');
  if (maximum === undefined) return undefined;
  const separator = ruleString(rule, 'separator') ?? ',';
  return {
    kind: 'x-joined-max-length',
    breaches(value) {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return [];
      const length = value.join(separator).length;
      return length > maximum
        ? [
            {
              below: [],
              message: `joined by "${separator}" is ${length} characters; at most ${maximum} are allowed`,
            },
          ]
        : [];
    },
    broken(value) {
      // Items as long as the item schema allows, as many as it takes to pass the joined maximum.
      const first = Array.isArray(value) && typeof value[0] === 'string' ? value[0] : 'tag';
      const itemLength = Math.max(4, Math.min(numberIn(schema.items, 'maxLength') ?? 50, 50));
      // n items of length L joined are n·L + (n − 1)·s characters: the least n above the maximum.
      const count = Math.floor((maximum + separator.length) / (itemLength + separator.length)) + 1;
      const stem = first.repeat(Math.ceil(itemLength / Math.max(first.length, 1)));
      return Array.from({ length: count }, (_, i) => `${stem.slice(0, itemLength - String(i).length)}${i}`);
    },
  };
}

function maxValueCombinations(rule: JsonObject): Placed | undefined {
  const maximum = ruleNumber(rule, 'maximum');
  if (maximum === undefined) return undefined;
  const values = ruleString(rule, 'values') ?? 'value';
  const listOf = (item: unknown) =>
    isFields(item) && Array.isArray(item[values]) ? item[values] : undefined;
  return {
    kind: 'x-max-value-combinations',
    breaches(value) {
      if (!Array.isArray(value)) return [];
      const count = value.reduce((total: number, item: unknown) => total * (listOf(item)?.length ?? 1), 1);
      return count > maximum
        ? [{ below: [], message: `combine to ${count} combinations; at most ${maximum} are allowed` }]
        : [];
    },
    broken(value) {
      // Every item's list grown to the same length, just enough for the product to pass the maximum.
      if (!Array.isArray(value) || value.length === 0 || !value.every((item) => listOf(item)))
        return undefined;
      const length = Math.ceil((maximum + 1) ** (1 / value.length) + 1e-9);
      return value.map((item) => {
        const fields = item as JsonObject;
        const first = String((listOf(fields) ?? [])[0] ?? 'v');
        return { ...fields, [values]: Array.from({ length }, (_, i) => `${first}${i}`) };
      });
    },
  };
}

function subsetOf(rule: JsonObject): Placed | undefined {
  const superset = ruleString(rule, 'field');
  if (superset === undefined) return undefined;
  const allowedIn = (parent: unknown): unknown[] =>
    isFields(parent) && Array.isArray(parent[superset]) ? parent[superset] : [];
  return {
    kind: 'x-subset-of',
    breaches: (value, parent) =>
      Array.isArray(value)
        ? value.flatMap((item: unknown, index) =>
            allowedIn(parent).includes(item)
              ? []
              : [{ below: [index], message: `${String(item)} is not in ${superset}` }],
          )
        : [],
    broken(value, parent) {
      if (!Array.isArray(value)) return undefined;
      const allowed = allowedIn(parent);
      const numbers = allowed.filter((item): item is number => typeof item === 'number');
      const outside: Json =
        numbers.length > 0 || allowed.length === 0 ? Math.max(0, ...numbers) + 1 : `not-in-${superset}`;
      return [...value, outside];
    },
  };
}

/** `x-not-less-than` on member `member` of an object whose members' schemas are `properties`. */
function notLessThan(member: string, properties: JsonObject): Placed | undefined {
  const memberSchema = properties[member];
  const rule = isJsonObject(memberSchema) ? memberSchema['x-not-less-than'] : undefined;
  const lower = isJsonObject(rule) ? ruleString(rule, 'field') : undefined;
  if (lower === undefined) return undefined;
  const defaultOf = (schema: Json | undefined) => (isJsonObject(schema) ? schema.default : undefined);
  const memberValue = (value: Fields, name: string) => value[name] ?? defaultOf(properties[name]);
  return {
    kind: 'x-not-less-than',
    breaches: (value) =>
      isFields(value) && comparable(memberValue(value, member)) < comparable(memberValue(value, lower))
        ? [{ below: [member], message: `must not be less than ${lower}` }]
        : [],
    broken(value) {
      // The lower member raised past the upper one.
      if (!isJsonObject(value)) return undefined;
      const above = greater(memberValue(value, member));
      return above === undefined ? undefined : { ...value, [lower]: above };
    },
  };
}

/** The rules a schema node's own extensions state (`x-not-less-than` placed on the object holding both members), keyed by what they say. */
function rulesOfNode(schema: JsonObject): [string, Placed | undefined][] {
  const own = (key: BodyRuleKind) => (isJsonObject(schema[key]) ? schema[key] : undefined);
  const stated = (key: BodyRuleKind, make: (rule: JsonObject) => Placed | undefined) => {
    const rule = own(key);
    return [`${key} ${JSON.stringify(rule)}`, rule && make(rule)] as [string, Placed | undefined];
  };
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  return [
    stated('x-decimal-maximum', decimalMaximum),
    stated('x-joined-max-length', (rule) => joinedMaxLength(rule, schema)),
    stated('x-max-value-combinations', maxValueCombinations),
    stated('x-subset-of', subsetOf),
    ...Object.keys(properties).map(
      (member) =>
        [
          `x-not-less-than ${member} ${JSON.stringify(properties[member])}`,
          notLessThan(member, properties),
        ] as [string, Placed | undefined],
    ),
  ];
}

/**
 * Calls `visit` with every subschema of a body schema and the body path it describes (`*` for
 * an item of a list), through properties, items, `allOf`/`anyOf`/`oneOf` and `then`/`else`,
 * outermost first (at most 32 levels deep, so a cyclic schema ends).
 */
export function walkBodySchema(
  schema: Json,
  visit: (node: JsonObject, at: readonly BodyStep[]) => void,
  at: readonly BodyStep[] = [],
  depth = 0,
): void {
  if (!isJsonObject(schema) || depth > 32) return;
  visit(schema, at);
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  for (const [member, memberSchema] of Object.entries(properties))
    walkBodySchema(memberSchema, visit, [...at, member], depth + 1);
  if (schema.items !== undefined) walkBodySchema(schema.items, visit, [...at, '*'], depth + 1);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const branch of branches) walkBodySchema(branch, visit, at, depth + 1);
  }
  for (const key of ['then', 'else'] as const) walkBodySchema(schema[key] ?? null, visit, at, depth + 1);
}

/**
 * Every body rule of a dereferenced request schema, once per place (a rule reached through two
 * branches of a schema, `oneOf` or `then`, is listed once).
 */
export function bodyRulesOf(schema: Json): BodyRule[] {
  const found = new Map<string, BodyRule>();
  walkBodySchema(schema, (node, at) => {
    for (const [key, rule] of rulesOfNode(node))
      if (rule && !found.has(`${at.join('/')} ${key}`)) found.set(`${at.join('/')} ${key}`, { ...rule, at });
  });
  return [...found.values()];
}

/** A value found in a body: its concrete path, the value, and the object or array holding it. */
export interface LocatedValue {
  readonly path: readonly (string | number)[];
  readonly value: unknown;
  readonly parent: unknown;
}

/** Each value at `steps` in `body`, with its concrete path and its parent. */
export function valuesAt(body: unknown, steps: readonly BodyStep[]): LocatedValue[] {
  let current: LocatedValue[] = [{ path: [], value: body, parent: undefined }];
  for (const step of steps) {
    current = current.flatMap(({ path, value }): LocatedValue[] => {
      if (step === '*')
        return Array.isArray(value)
          ? value.map((item, index) => ({ path: [...path, index], value: item, parent: value }))
          : [];
      return isFields(value) && value[step] !== undefined
        ? [{ path: [...path, step], value: value[step], parent: value }]
        : [];
    });
  }
  return current;
}

/** A JSON body path as the spec names fields: `request.shipping_rates/0/shipping_fee`. */
export const bodyFieldName = (path: readonly (string | number)[]): string =>
  path.length < 2 ? path.join('') : `${path[0]}.${path.slice(1).join('/')}`;

/** Every breach of `rules` in `body`, each with the field it names (a breach found twice is given once). */
export function bodyRuleBreaches(
  rules: readonly BodyRule[],
  body: unknown,
): { readonly field: string; readonly message: string }[] {
  const all = rules.flatMap((rule) =>
    valuesAt(body, rule.at).flatMap(({ path, value, parent }) =>
      rule.breaches(value, parent).map((breach) => ({
        field: bodyFieldName([...path, ...breach.below]),
        message: breach.message,
      })),
    ),
  );
  const seen = new Set<string>();
  return all.filter(
    ({ field, message }) => !seen.has(`${field}\n${message}`) && !!seen.add(`${field}\n${message}`),
  );
}
