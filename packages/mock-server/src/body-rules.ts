// Rules about a JSON request body that JSON Schema cannot express but the request alone settles,
// read from the rule extensions on the operation's request schema (specs/README.md, "Extensions"):
// `x-decimal-maximum` (a decimal string at most a number), `x-not-less-than` (a member not below a
// sibling, numbers, decimal strings or date-times, an omitted member taking its schema `default`),
// `x-joined-max-length` (an array of strings joined by a separator at most N characters),
// `x-max-value-combinations` (the items' value lists combine to at most N) and `x-subset-of` (every
// item also in a sibling array). An operation's rules are worked out once from its schema; each
// broken rule is a violation naming the field (`request.<field>`, deeper members and array elements
// as `request.<field>/<index>/<member>` like the spec's examples), answered with 422. Rules that need
// stored state (unknown ids, stored values, mall settings) belong to the sandbox, not here.
import { isJsonObject, type Json, type JsonObject, loadSpecSync, type SpecModel } from '@mall-api/spec-model';
import type { Violation } from './error-envelope.js';

/** Checks one request body against an operation's body rules. */
export type BodyRuleCheck = (body: unknown) => Violation[];

/** A step from an object to a member, or `*` from an array to each of its items. */
type Step = string;

/** One rule found in the schema: where it applies (the node it sits on) and what it checks there. */
interface PlacedRule {
  /** Steps from the body to the node holding the rule. */
  readonly at: readonly Step[];
  readonly check: (value: unknown, path: readonly (string | number)[], parent: unknown) => Violation[];
}

type Fields = Readonly<Record<string, unknown>>;
const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const violation = (name: string, message: string): Violation => ({ location: 'body', name, message });

/** A JSON body path as the spec names it: `request.shipping_rates/0/shipping_fee`. */
const nameOf = (path: readonly (string | number)[]): string =>
  path.length < 2 ? path.join('') : `${path[0]}.${path.slice(1).join('/')}`;

/** A number, a decimal string or a date-time as a number (NaN when it is none of these). */
function comparable(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : Date.parse(value);
}

const ruleNumber = (rule: JsonObject, key: string): number | undefined =>
  typeof rule[key] === 'number' ? (rule[key] as number) : undefined;
const ruleString = (rule: JsonObject, key: string): string | undefined =>
  typeof rule[key] === 'string' ? (rule[key] as string) : undefined;

/** The checks a schema node's own rule extensions ask for, with the node's property schemas for defaults. */
function rulesOfNode(schema: JsonObject, properties: JsonObject): PlacedRule['check'][] {
  const checks: PlacedRule['check'][] = [];
  const rule = (key: string): JsonObject | undefined => (isJsonObject(schema[key]) ? schema[key] : undefined);

  const decimalMaximum = rule('x-decimal-maximum');
  const ceiling = decimalMaximum && ruleNumber(decimalMaximum, 'maximum');
  if (ceiling !== undefined)
    checks.push((value, path) =>
      typeof value === 'string' && comparable(value) > ceiling
        ? [violation(nameOf(path), `must be at most ${ceiling}`)]
        : [],
    );

  const joined = rule('x-joined-max-length');
  const joinedMax = joined && ruleNumber(joined, 'maximum');
  if (joined && joinedMax !== undefined) {
    const separator = ruleString(joined, 'separator') ?? ',';
    checks.push((value, path) => {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return [];
      const length = value.join(separator).length;
      return length > joinedMax
        ? [
            violation(
              nameOf(path),
              `joined by "${separator}" is ${length} characters; at most ${joinedMax} are allowed`,
            ),
          ]
        : [];
    });
  }

  const combinations = rule('x-max-value-combinations');
  const combinationsMax = combinations && ruleNumber(combinations, 'maximum');
  if (combinations && combinationsMax !== undefined) {
    const values = ruleString(combinations, 'values') ?? 'value';
    checks.push((value, path) => {
      if (!Array.isArray(value)) return [];
      const count = value.reduce(
        (total: number, item: unknown) =>
          total * (isFields(item) && Array.isArray(item[values]) ? item[values].length : 1),
        1,
      );
      return count > combinationsMax
        ? [
            violation(
              nameOf(path),
              `combine to ${count} combinations; at most ${combinationsMax} are allowed`,
            ),
          ]
        : [];
    });
  }

  const subset = rule('x-subset-of');
  const superset = subset && ruleString(subset, 'field');
  if (superset !== undefined)
    checks.push((value, path, parent) => {
      const allowed = isFields(parent) && Array.isArray(parent[superset]) ? parent[superset] : [];
      if (!Array.isArray(value)) return [];
      return value.flatMap((item: unknown, index) =>
        allowed.includes(item)
          ? []
          : [violation(nameOf([...path, index]), `${String(item)} is not in ${superset}`)],
      );
    });

  // `x-not-less-than` sits on the upper member; the check runs on the object holding both.
  for (const [member, memberSchema] of Object.entries(properties)) {
    if (!isJsonObject(memberSchema) || !isJsonObject(memberSchema['x-not-less-than'])) continue;
    const lower = ruleString(memberSchema['x-not-less-than'], 'field');
    if (lower === undefined) continue;
    const lowerSchema = properties[lower];
    const defaultOf = (s: Json | undefined) => (isJsonObject(s) ? s.default : undefined);
    checks.push((value, path) => {
      if (!isFields(value)) return [];
      const high = comparable(value[member] ?? defaultOf(memberSchema));
      const low = comparable(value[lower] ?? defaultOf(lowerSchema));
      return high < low ? [violation(nameOf([...path, member]), `must not be less than ${lower}`)] : [];
    });
  }
  return checks;
}

/** Every rule in a dereferenced schema, with where it sits. */
function collectRules(schema: Json, at: readonly Step[], found: PlacedRule[], depth = 0): void {
  if (!isJsonObject(schema) || depth > 32) return;
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  for (const check of rulesOfNode(schema, properties)) found.push({ at, check });
  for (const [member, memberSchema] of Object.entries(properties))
    collectRules(memberSchema, [...at, member], found, depth + 1);
  if (schema.items !== undefined) collectRules(schema.items, [...at, '*'], found, depth + 1);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const branch of branches) collectRules(branch, at, found, depth + 1);
  }
  for (const key of ['then', 'else'] as const) collectRules(schema[key] ?? null, at, found, depth + 1);
}

/** A value found in a body: its concrete path, the value, and the object or array holding it. */
interface Located {
  readonly path: (string | number)[];
  readonly value: unknown;
  readonly parent: unknown;
}

/** Each value at `steps` in `body`, with its concrete path and its parent. */
function valuesAt(body: unknown, steps: readonly Step[]): Located[] {
  let current: Located[] = [{ path: [], value: body, parent: undefined }];
  for (const step of steps) {
    current = current.flatMap(({ path, value }): Located[] => {
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

/**
 * Works out an operation's body rules once from its JSON request schema and returns the check for
 * its request bodies (no rules: a check that finds nothing).
 */
export function compileBodyRules(model: SpecModel, operationId: string): BodyRuleCheck {
  const schema = model.operation(operationId)?.bodySchema;
  if (schema === undefined) return () => [];
  const rules: PlacedRule[] = [];
  collectRules(model.dereference(schema), [], rules);
  if (rules.length === 0) return () => [];
  return (body) => {
    const violations = rules.flatMap(({ at, check }) =>
      valuesAt(body, at).flatMap(({ path, value, parent }) => check(value, path, parent)),
    );
    // A rule reached through two branches of a schema (`oneOf`, `then`) is reported once.
    const seen = new Set<string>();
    return violations.filter(
      ({ name, message }) => !seen.has(`${name}\n${message}`) && !!seen.add(`${name}\n${message}`),
    );
  };
}

let adminModel: SpecModel | undefined;
const compiled = new Map<string, BodyRuleCheck>();

/** All body violations of a request to the admin operation `operationId`, by the shipped admin spec. */
export function bodyRuleViolations(operationId: string, body: unknown): Violation[] {
  let check = compiled.get(operationId);
  if (check === undefined) {
    adminModel ??= loadSpecSync('admin');
    check = compileBodyRules(adminModel, operationId);
    compiled.set(operationId, check);
  }
  return check(body);
}
