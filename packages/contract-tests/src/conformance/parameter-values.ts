// Values for one parameter, read from its schema and examples in the spec: the example a valid
// request uses, the valid variants beyond it (each enum value, both ends of a range, one seeded
// value inside it, the string at its longest, the list at its most items) and one invalid value per
// schema keyword. Not for rules between parameters (request-cases.ts) nor for sending anything.
import { isJsonObject, type Json, type JsonObject, type OperationParameter } from '@mall-api/spec-model';
import fc from 'fast-check';

/** A value to send for a parameter, and what it shows. */
export interface ParameterValue {
  readonly value: Json;
  /** e.g. `minimum`, `enum T`, `maxItems`. */
  readonly label: string;
}

const asNumber = (value: Json | undefined) => (typeof value === 'number' ? value : undefined);
const isInteger = (schema: JsonObject) => schema.type === 'integer';

/** The item schema of an array parameter (resolved by the caller when it is a `$ref`). */
export const itemsOf = (schema: JsonObject): JsonObject => (isJsonObject(schema.items) ? schema.items : {});

/** The parameter's documented example: `example`, the first named example, then the schema's. */
export function exampleOf(
  parameter: OperationParameter,
  items: JsonObject = itemsOf(parameter.schema),
): Json {
  const { definition, schema } = parameter;
  if (definition.example !== undefined) return definition.example;
  const named = isJsonObject(definition.examples) ? Object.values(definition.examples)[0] : undefined;
  if (isJsonObject(named) && named.value !== undefined) return named.value;
  return exampleOfSchema(schema, items);
}

function exampleOfSchema(schema: JsonObject, items: JsonObject): Json {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples[0] !== undefined) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum[0] !== undefined) return schema.enum[0];
  if (schema.type === 'array') return [exampleOfSchema(items, {})];
  if (schema.type === 'integer' || schema.type === 'number') return asNumber(schema.minimum) ?? 1;
  if (schema.type === 'boolean') return true;
  return 'a';
}

/** Valid values beyond the example: enum members, range ends and a seeded inner value, longest string, fullest list. */
export function validVariants(
  parameter: OperationParameter,
  items: JsonObject,
  seed: number,
): ParameterValue[] {
  const { schema } = parameter;
  const variants: ParameterValue[] = [];
  if (Array.isArray(schema.enum))
    for (const value of schema.enum) variants.push({ value, label: `enum ${value}` });
  const minimum = asNumber(schema.minimum);
  const maximum = asNumber(schema.maximum);
  if (!Array.isArray(schema.enum) && (schema.type === 'integer' || schema.type === 'number')) {
    if (minimum !== undefined) variants.push({ value: minimum, label: 'minimum' });
    if (maximum !== undefined) variants.push({ value: maximum, label: 'maximum' });
    if (minimum !== undefined && maximum !== undefined && maximum - minimum > 1) {
      const [inner] = fc.sample(fc.integer({ min: Math.ceil(minimum) + 1, max: Math.floor(maximum) - 1 }), {
        seed,
        numRuns: 1,
      });
      if (inner !== undefined) variants.push({ value: inner, label: `inside the range (${inner})` });
    }
  }
  const maxLength = asNumber(schema.maxLength);
  if (schema.type === 'string' && maxLength !== undefined && plainString(schema))
    variants.push({ value: 'a'.repeat(maxLength), label: 'maxLength' });
  const fullest = fullestList(schema, items, exampleOf(parameter, items));
  if (fullest) variants.push({ value: fullest, label: 'maxItems' });
  return variants;
}

const plainString = (schema: JsonObject) =>
  schema.pattern === undefined && schema.format === undefined && schema.enum === undefined;

/** A list of `maxItems` distinct valid items, when the item schema lets us make them. */
function fullestList(schema: JsonObject, items: JsonObject, example: Json): Json[] | undefined {
  const maxItems = asNumber(schema.maxItems);
  if (schema.type !== 'array' || maxItems === undefined) return undefined;
  if (Array.isArray(items.enum))
    return items.enum.length >= maxItems ? items.enum.slice(0, maxItems) : undefined;
  if (isInteger(items)) {
    const from = asNumber(items.minimum) ?? 1;
    return Array.from({ length: maxItems }, (_, i) => from + i);
  }
  const first = Array.isArray(example) ? example[0] : undefined;
  if (items.type === 'string' && plainString(items) && typeof first === 'string') {
    const room = (asNumber(items.maxLength) ?? 250) - String(maxItems).length;
    return Array.from({ length: maxItems }, (_, i) => `${first.slice(0, Math.max(1, room))}${i}`);
  }
  return undefined;
}

/** One invalid value per schema keyword the parameter has, each labelled with the keyword. */
export function invalidValues(parameter: OperationParameter, items: JsonObject): ParameterValue[] {
  const { schema } = parameter;
  const invalid: ParameterValue[] = [];
  const minimum = asNumber(schema.minimum);
  const maximum = asNumber(schema.maximum);
  if (minimum !== undefined) invalid.push({ value: minimum - 1, label: 'minimum' });
  if (maximum !== undefined) invalid.push({ value: maximum + 1, label: 'maximum' });
  if (Array.isArray(schema.enum)) {
    const outside =
      schema.type === 'string' ? 'not-a-member' : outsideIntegers(schema.enum, minimum, maximum);
    if (outside !== undefined) invalid.push({ value: outside, label: 'enum' });
  }
  if (schema.type === 'integer' || schema.type === 'number') invalid.push({ value: 'abc', label: 'type' });
  if (schema.type === 'boolean') invalid.push({ value: 'maybe', label: 'type' });
  const maxLength = asNumber(schema.maxLength);
  if (schema.type === 'string' && maxLength !== undefined && schema.enum === undefined)
    invalid.push({ value: 'a'.repeat(maxLength + 1), label: 'maxLength' });
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test('not valid!'))
    invalid.push({ value: 'not valid!', label: 'pattern' });
  const maxItems = asNumber(schema.maxItems);
  if (schema.type === 'array' && maxItems !== undefined) {
    const list = fullestList({ ...schema, maxItems: maxItems + 1 }, items, exampleOf(parameter, items));
    if (list) invalid.push({ value: list, label: 'maxItems' });
  }
  if (schema.type === 'array' && items.pattern !== undefined)
    invalid.push({ value: ['not valid!'], label: 'items.pattern' });
  if (schema.type === 'array' && Array.isArray(items.enum))
    invalid.push({ value: ['not-a-member'], label: 'items.enum' });
  return invalid;
}

/** An integer inside the range that the enum leaves out, if there is one. */
function outsideIntegers(members: readonly Json[], minimum?: number, maximum?: number): number | undefined {
  const from = minimum ?? 0;
  const to = maximum ?? from + members.length + 1;
  for (let value = from; value <= to; value++) if (!members.includes(value)) return value;
  return undefined;
}
