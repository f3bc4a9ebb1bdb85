// OpenAPI 3.1 parameter serialization, both ways: the text a request carries for a path, query or
// header parameter becomes the JSON value its schema describes (a `form`/`simple` comma list, a
// `spaceDelimited` or `pipeDelimited` list, or repeated keys when exploded become arrays; numerals
// and `true`/`false` become numbers and booleans where the schema asks for them), and a value
// becomes the texts to send. A text that does not convert stays a string, so schema validation
// reports it. Styles and `explode` default as the OpenAPI specification says. Browser-safe.

/** What serialization reads of a parameter: where it goes and how it is styled. */
export interface SerializedParameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header' | 'cookie';
  readonly style?: string | undefined;
  readonly explode?: boolean | undefined;
}

type Schema = { readonly [key: string]: unknown };

const numeral = /^-?(?:\d+|\d*\.\d+)(?:[eE][+-]?\d+)?$/;
const delimiters: Readonly<Record<string, string>> = { spaceDelimited: ' ', pipeDelimited: '|' };

/** The parameter's style: as declared, else `form` in query and cookie and `simple` in path and header. */
export function parameterStyle(parameter: SerializedParameter): string {
  return parameter.style ?? (parameter.in === 'query' || parameter.in === 'cookie' ? 'form' : 'simple');
}

/** Whether list items go under repeated keys: as declared, else only for the `form` style. */
export function parameterExplodes(parameter: SerializedParameter): boolean {
  return parameter.explode ?? parameterStyle(parameter) === 'form';
}

function typesOf(schema: Schema | undefined): string[] {
  const type = schema?.type;
  return Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
}

/** One text as the scalar `schema` describes: a number or a boolean where it asks for one. */
export function scalarValue(raw: string, schema: Schema | undefined): unknown {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && numeral.test(raw)) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/**
 * The value of one parameter from the text(s) a request carries for it (a repeated query key gives
 * several). `itemSchema` is the schema of an array's items when `schema.items` is a reference the
 * caller resolved; it defaults to `schema.items`.
 */
export function parameterValue(
  parameter: SerializedParameter,
  schema: Schema,
  raw: string | readonly string[],
  itemSchema: Schema | undefined = schema.items as Schema | undefined,
): unknown {
  if (typesOf(schema).includes('array')) {
    const delimiter = delimiters[parameterStyle(parameter)] ?? ',';
    // A delimited list sent under a repeated key: every occurrence counts, each split at its delimiters.
    const occurrences = typeof raw === 'string' ? [raw] : raw;
    const items = parameterExplodes(parameter)
      ? occurrences
      : occurrences.flatMap((value) => value.split(delimiter));
    return items.map((item) => scalarValue(item, itemSchema));
  }
  return scalarValue(typeof raw === 'string' ? raw : (raw[0] ?? ''), schema);
}

/** The texts that carry `value`: one per item for an exploded list, else one delimited text. */
export function parameterTexts(parameter: SerializedParameter, value: unknown): string[] {
  if (!Array.isArray(value)) return [String(value)];
  if (parameterExplodes(parameter)) return value.map(String);
  return [value.map(String).join(delimiters[parameterStyle(parameter)] ?? ',')];
}
