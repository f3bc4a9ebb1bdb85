// Turns raw request parameters (query strings, path segments, header values) into the JSON values
// their schemas describe, the way OpenAPI's `style: form` serialization defines them: comma lists
// (`explode: false`) or repeated keys become arrays, and numerals and `true`/`false` become numbers
// and booleans where the schema asks for them. A value that does not convert stays a string, so
// schema validation reports it.
import type { OperationParameter } from '@mall-api/spec-model';

type Schema = { [key: string]: unknown };

const numeral = /^-?(?:\d+|\d*\.\d+)(?:[eE][+-]?\d+)?$/;

function typesOf(schema: Schema | undefined): string[] {
  const type = schema?.type;
  return Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
}

function coerceScalar(raw: string, schema: Schema | undefined): unknown {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && numeral.test(raw)) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/** Converts one raw parameter value by the parameter's schema and style. */
export function coerceParameter(
  parameter: OperationParameter,
  raw: string | string[],
  itemSchema: Schema | undefined,
): unknown {
  const schema = parameter.schema as Schema;
  if (typesOf(schema).includes('array')) {
    const explode = parameter.explode ?? parameter.in === 'query';
    // A comma list sent under a repeated key: every occurrence counts, each split at its commas.
    const occurrences = Array.isArray(raw) ? raw : [raw];
    const items = explode ? occurrences : occurrences.flatMap((value) => value.split(','));
    return items.map((item) => coerceScalar(item, itemSchema));
  }
  return coerceScalar(Array.isArray(raw) ? (raw[0] ?? '') : raw, schema);
}
