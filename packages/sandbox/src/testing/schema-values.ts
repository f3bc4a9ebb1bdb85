// Test support: a value valid for a (dereferenced) JSON schema (`const`, an `enum` value other than
// the `default`, an example, else a value of its type within bounds), so a write of it is
// observable; `variant` 1 gives a second value. Numbers naming records come from `identifiers`.
// The caller checks the value against the schema. Not built, not shipped.

// biome-ignore lint/suspicious/noExplicitAny: schemas are read loosely
type Schema = Record<string, any>;

/** A date and a time of the sandbox's clock era, for `format: date` and `date-time`. */
const sampleDate = '2026-05-17';

function typeOf(schema: Schema): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type.filter((t: string) => t !== 'null') : [schema.type];
  return types[0];
}

/** A string of the schema's format and bounds. */
function stringValue(schema: Schema, variant: number): string {
  const day = variant === 0 ? sampleDate : '2026-06-21';
  if (schema.format === 'date') return day;
  if (schema.format === 'date-time') return `${day}T10:30:00+09:00`;
  if (schema.format === 'uri') return `https://sandbox.example.com/written/${variant}`;
  const text = variant === 0 ? 'written value' : 'rewritten value';
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : text.length;
  return text.slice(0, Math.max(max, schema.minLength ?? 1));
}

/** A second value beside a schema's one example: a number or decimal string one more, else the example. */
function nextAmount(example: unknown): unknown {
  if (typeof example === 'number') return example + 1;
  const decimal = typeof example === 'string' ? /^\d+(?:\.(\d+))?$/.exec(example) : null;
  return decimal ? (Number(example) + 1).toFixed(decimal[1]?.length ?? 0) : structuredClone(example);
}

/** A number within the schema's bounds, other than its default. */
function numberValue(schema: Schema, variant: number): number {
  const low = typeof schema.minimum === 'number' ? schema.minimum : 1;
  const candidate = low + 1 + variant;
  const high = typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER;
  return Math.min(candidate === schema.default ? candidate + 1 : candidate, high);
}

/** The existing records a property named `name` refers to: `category_no`, `parent_category_no`, `fix_product_no`, … */
function recordsNamed(name: string | undefined, identifiers: Identifiers): readonly number[] {
  if (name === undefined) return [];
  const [, numbers] = [...identifiers].find(([id]) => name === id || name.endsWith(`_${id}`)) ?? [];
  return numbers ?? [];
}

/** How many records an array's items can refer to (one item each); 1 for items that refer to none. */
function referredCount(items: Schema, name: string | undefined, identifiers: Identifiers): number {
  const named = [name, ...Object.keys(items.properties ?? {})].map(
    (n) => recordsNamed(n, identifiers).length,
  );
  return Math.max(1, ...named);
}

/** Existing record numbers by the name of their identifier (`category_no` → categories). */
export type Identifiers = ReadonlyMap<string, readonly number[]>;

/**
 * A value for `schema` (dereferenced), the property `name` when it is one; `identifiers` gives
 * existing record numbers by the name of their identifier, `index` which of them an item refers to.
 */
export function schemaValue(
  schema: Schema,
  identifiers: Identifiers,
  name?: string,
  variant = 0,
  index = 0,
): unknown {
  const records = recordsNamed(name, identifiers);
  if (records.length > 0 && typeOf(schema) === 'integer') return records[index % records.length];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((value: unknown) => value !== null);
    const others = values.filter((value: unknown) => value !== schema.default);
    return others.length > 0 ? others[variant % others.length] : values[0];
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const branch = branches.find((b: Schema) => b.type !== 'null') ?? branches[0];
    return schemaValue({ ...branch, default: schema.default }, identifiers, name, variant, index);
  }
  const examples = Array.isArray(schema.examples)
    ? schema.examples.filter((example: unknown) => example !== schema.default)
    : [];
  if (examples.length > 0)
    return variant < examples.length || examples.length > 1
      ? structuredClone(examples[variant % examples.length])
      : nextAmount(examples[0]);
  switch (typeOf(schema)) {
    case 'object': {
      const properties: Schema = schema.properties ?? {};
      return Object.fromEntries(
        Object.entries(properties).map(([key, inner]) => [
          key,
          schemaValue(inner, identifiers, key, variant, index),
        ]),
      );
    }
    case 'array': {
      const items: Schema = schema.items ?? {};
      const count = Math.max(schema.minItems ?? 1, referredCount(items, name, identifiers));
      return Array.from({ length: count }, (_, i) => schemaValue(items, identifiers, name, variant, i));
    }
    case 'integer':
    case 'number':
      return numberValue(schema, variant);
    case 'boolean':
      return schema.default !== true;
    default:
      return stringValue(schema, variant);
  }
}
