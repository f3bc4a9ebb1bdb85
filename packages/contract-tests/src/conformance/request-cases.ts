// The requests the conformance runner derives for one operation from its parameters and their
// `x-` rules: the baseline (required parameters at their examples), valid variants of one query or
// header parameter at a time (parameter-values.ts; rules between parameters kept), and one invalid
// request per rule (each schema keyword, a missing required parameter, `x-not-less-than`,
// `x-mutually-exclusive`, `x-requires-one-of`, `x-max-values-per-key`) naming the parameter the
// answer's violation must name. Nothing here lists operations or parameters.
import type { Json, JsonObject, OperationEntry, OperationParameter, SpecModel } from '@mall-api/spec-model';
import {
  declaredApiVersionsOf,
  type ParameterRules,
  parameterRulesOf,
  parameterTexts,
  parameterValue,
} from '@mall-api/spec-model';
import { exampleOf, invalidValues, validVariants } from './parameter-values.js';

/** The parts of a request the runner fills in for an operation. */
export interface RequestParts {
  readonly path: Readonly<Record<string, Json>>;
  readonly query: Readonly<Record<string, Json>>;
  /** Documented request headers (`in: header` parameters) the case sets. */
  readonly headers?: Readonly<Record<string, Json>>;
}

/** The part of a request a parameter goes in. */
const partOf = (p: OperationParameter): 'path' | 'query' | 'headers' =>
  p.in === 'path' ? 'path' : p.in === 'header' ? 'headers' : 'query';

/** `base` with `values` added to one of its parts. */
export const withIn = (
  base: RequestParts,
  part: 'path' | 'query' | 'headers',
  values: Readonly<Record<string, Json>>,
): RequestParts => ({ ...base, [part]: { ...base[part], ...values } });

/** One derived request and what its answer must be. */
export interface RequestCase {
  readonly name: string;
  readonly parts: RequestParts;
  /** Valid: a 2xx. Invalid: the documented validation status with a violation naming `field` (one of `fields`). */
  readonly expect:
    | { readonly kind: 'valid' }
    | { readonly kind: 'invalid'; readonly fields: readonly string[] };
}

const wants = (operation: OperationEntry, where: OperationParameter['in']) =>
  operation.parameters.filter((parameter) => parameter.in === where);

/** The request every case starts from: path and required query parameters at their examples. */
export function baselineParts(model: SpecModel, operation: OperationEntry): RequestParts {
  const exampleValue = (parameter: OperationParameter) =>
    exampleOf(parameter, model.resolveOptional(parameter.schema.items) ?? {});
  return {
    path: Object.fromEntries(wants(operation, 'path').map((p) => [p.name, firstOf(exampleValue(p))])),
    query: Object.fromEntries(
      wants(operation, 'query')
        .filter((p) => p.required)
        .map((p) => [p.name, exampleValue(p)]),
    ),
  };
}

const firstOf = (value: Json): Json => (Array.isArray(value) ? (value[0] ?? null) : value);

/** Parameters `x-requires-one-of` asks for when `parameter` holds `value`. */
function requiredWith(rules: ParameterRules, parameter: OperationParameter, value: Json): readonly string[] {
  // The value as the server reads it: a comma-list example written as one text becomes its items.
  const read = parameterValue(parameter, parameter.schema, parameterTexts(parameter, value));
  const values = (Array.isArray(read) ? read : [read]).map(String);
  const found = rules.requiresOneOf.find(
    (rule) => rule.name === parameter.name && values.includes(rule.value),
  );
  return found?.oneOf ?? [];
}

/** `x-not-less-than`'s sibling of `p`, if it has one. */
const lowerBoundOf = (rules: ParameterRules, p: OperationParameter): string | undefined =>
  rules.notLessThan.find((rule) => rule.upper === p.name)?.lower;

/** Every valid and invalid request case of `operation`. */
export function requestCases(model: SpecModel, operation: OperationEntry, seed: number): RequestCase[] {
  const base = baselineParts(model, operation);
  const byName = new Map(operation.parameters.map((p) => [p.name, p]));
  const rules = parameterRulesOf(operation);
  const exclusive = rules.mutuallyExclusive;
  const itemsOf = (p: OperationParameter): JsonObject => model.resolveOptional(p.schema.items) ?? {};
  const example = (name: string): Json => {
    const p = byName.get(name);
    return p ? exampleOf(p, itemsOf(p)) : null;
  };
  /** Base plus `name=value`, with what the rules between parameters then ask for. */
  const withValue = (p: OperationParameter, value: Json): RequestParts => {
    const extra: Record<string, Json> = { [p.name]: value };
    const [needed] = requiredWith(rules, p, value);
    if (needed && !(needed in base.query)) extra[needed] = example(needed);
    const partner = lowerBoundOf(rules, p);
    if (partner && !(partner in base.query)) extra[partner] = lowest(byName.get(partner), value);
    return withIn(base, partOf(p), extra);
  };
  const cases: RequestCase[] = [
    { name: 'baseline (required parameters at their examples)', parts: base, expect: { kind: 'valid' } },
  ];
  for (const p of operation.parameters.filter((q) => q.in !== 'cookie')) {
    const items = itemsOf(p);
    if (
      p.in !== 'path' &&
      !p.required &&
      !exclusive.some((pair) => pair.includes(p.name) && pair.some((o) => o in base.query && o !== p.name))
    )
      cases.push({
        name: `${p.name} on (its example)`,
        parts: withValue(p, exampleOf(p, items)),
        expect: { kind: 'valid' },
      });
    if (p.in !== 'path')
      for (const variant of validVariants(p, items, seed))
        cases.push({
          name: `${p.name} at ${variant.label}`,
          parts: withValue(p, variant.value),
          expect: { kind: 'valid' },
        });
    for (const invalid of invalidValues(p, items))
      cases.push({
        name: `${p.name} breaking ${invalid.label}`,
        parts: withIn(base, partOf(p), { [p.name]: invalid.value }),
        expect: { kind: 'invalid', fields: [p.name] },
      });
    cases.push(...versionCases(model, p, base));
    cases.push(...ruleCases(rules, p, base, example));
  }
  cases.push(...orderingCases(byName, base));
  for (const [a, b] of exclusive)
    cases.push({
      name: `${a} with ${b} (x-mutually-exclusive)`,
      parts: withIn(base, 'query', { [a]: example(a), [b]: example(b) }),
      expect: { kind: 'invalid', fields: [a, b] },
    });
  return cases;
}

/**
 * The version header (`x-api-versions`): a release date the document does not describe is valid
 * (answered as the version the spec names for it), so it is sent as a valid case.
 */
function versionCases(model: SpecModel, p: OperationParameter, base: RequestParts): RequestCase[] {
  const versions = p.in === 'header' ? declaredApiVersionsOf(model.document) : undefined;
  if (!versions || versions.header?.toLowerCase() !== p.name.toLowerCase()) return [];
  const undescribed = ['1999-01-01', '2099-12-31'].find((date) => !versions.dates.includes(date));
  return undescribed
    ? [
        {
          name: `${p.name} at ${undescribed}, a release date the document does not describe (answered as the ${versions.unknownAnsweredAs})`,
          parts: withIn(base, 'headers', { [p.name]: undescribed }),
          expect: { kind: 'valid' },
        },
      ]
    : [];
}

/** A value of the lower-bound parameter that does not exceed `upper` (its minimum, or `upper` itself). */
function lowest(partner: OperationParameter | undefined, upper: Json): Json {
  const minimum = partner?.schema.minimum;
  return typeof minimum === 'number' && typeof upper === 'number' && minimum <= upper ? minimum : upper;
}

/** The invalid requests of the `x-` rules on one parameter and of its requiredness. */
function ruleCases(
  rules: ParameterRules,
  p: OperationParameter,
  base: RequestParts,
  example: (name: string) => Json,
): RequestCase[] {
  const cases: RequestCase[] = [];
  if (p.required && p.in === 'query') {
    const { [p.name]: _dropped, ...rest } = base.query;
    cases.push({
      name: `${p.name} missing (required)`,
      parts: { ...base, query: rest },
      expect: { kind: 'invalid', fields: [p.name] },
    });
  }
  const partner = lowerBoundOf(rules, p);
  if (partner) {
    const [low, high] = orderedPair(example(p.name), example(partner));
    cases.push({
      name: `${p.name} below ${partner} (x-not-less-than)`,
      parts: withIn(base, 'query', { [partner]: high, [p.name]: low }),
      expect: { kind: 'invalid', fields: [p.name] },
    });
  }
  for (const { value, oneOf: others } of rules.requiresOneOf.filter((rule) => rule.name === p.name)) {
    if (others.some((name) => name in base.query)) continue;
    cases.push({
      name: `${p.name}=${value} without ${others.join(' or ')} (x-requires-one-of)`,
      parts: withIn(base, 'query', { [p.name]: value }),
      expect: { kind: 'invalid', fields: [p.name, ...others] },
    });
  }
  const perKey = rules.maxValuesPerKey.find((rule) => rule.name === p.name)?.maximum;
  const first = firstOf(example(p.name));
  if (perKey !== undefined && typeof first === 'string' && first.includes(':')) {
    const key = first.slice(0, first.indexOf(':'));
    const values = Array.from({ length: perKey + 1 }, (_, i) => `${key}:v${i}`);
    cases.push({
      name: `${p.name} with ${perKey + 1} values of ${key} (x-max-values-per-key)`,
      parts: withIn(base, 'query', { [p.name]: values }),
      expect: { kind: 'invalid', fields: [p.name] },
    });
  }
  return cases;
}

/** Two distinct values of the kind of `a` and `b` (numbers, dates, decimal strings), lower first. */
function orderedPair(a: Json, b: Json): [Json, Json] {
  const sample =
    typeof a === 'number' || typeof a === 'string'
      ? a
      : typeof b === 'number' || typeof b === 'string'
        ? b
        : 1;
  if (typeof sample === 'number') return [sample, sample + 10];
  if (/^\d{4}-\d{2}-\d{2}/.test(sample)) {
    const day = new Date(`${sample.slice(0, 10)}T00:00:00Z`);
    const later = new Date(day.getTime() + 5 * 86_400_000).toISOString().slice(0, 10);
    return [sample.slice(0, 10), later];
  }
  const number = Number(sample);
  return Number.isFinite(number) ? [String(number), String(number + 10)] : [sample, sample];
}

/** Every `sort` value in every `order`, so the order of each sort key is checked both ways. */
function orderingCases(byName: ReadonlyMap<string, OperationParameter>, base: RequestParts): RequestCase[] {
  const keys = byName.get('sort')?.schema.enum;
  const orders = byName.get('order')?.schema.enum;
  if (!Array.isArray(keys) || !Array.isArray(orders)) return [];
  return keys.flatMap((sort) =>
    orders.map((order) => ({
      name: `sort=${sort}&order=${order}`,
      parts: withIn(base, 'query', { sort, order }),
      expect: { kind: 'valid' as const },
    })),
  );
}
