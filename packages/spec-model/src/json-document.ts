// The JSON shape of a bundled OpenAPI document and the two ways to read through its local
// references: `resolve` follows one `$ref` chain to the node it names, `dereference` returns a deep
// copy with every local reference replaced (a reference back into its own ancestry stays a `$ref`,
// so recursive schemas do not loop). Neither changes the document.

/** A JSON value of an OpenAPI document. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object of an OpenAPI document. */
export type JsonObject = { [key: string]: Json };

/** Whether a JSON value is an object (not an array, not null). */
export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The node a local JSON pointer (`#/components/schemas/Shop`) names in `document`, if any. */
export function nodeAt(document: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith('#')) return undefined;
  return ref
    .replace(/^#\/?/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .reduce<Json | undefined>(
      (node, segment) => (isJsonObject(node) ? node[unescapePointer(segment)] : undefined),
      document,
    );
}

/**
 * Follows `$ref`s from `value` until a node without one is reached.
 * @returns that node, or `undefined` when the value is absent or a reference dangles.
 */
export function resolveOptional(document: JsonObject, value: Json | undefined): JsonObject | undefined {
  let current = value;
  const seen = new Set<string>();
  while (isJsonObject(current) && typeof current.$ref === 'string') {
    if (seen.has(current.$ref)) throw new Error(`circular $ref ${current.$ref} in the bundled spec`);
    seen.add(current.$ref);
    current = nodeAt(document, current.$ref);
  }
  return isJsonObject(current) ? current : undefined;
}

/**
 * Follows `$ref`s from `value` until a node without one is reached.
 * @throws when the value is absent or a reference does not resolve to an object.
 */
export function resolve(document: JsonObject, value: Json | undefined): JsonObject {
  const node = resolveOptional(document, value);
  if (!node) throw new Error(`unresolvable reference in the bundled spec: ${JSON.stringify(value)}`);
  return node;
}

/** A deep copy of `value` with every local `$ref` replaced by what it names. */
export function dereference(document: JsonObject, value: Json): Json {
  const walk = (node: Json, ancestry: readonly string[]): Json => {
    if (Array.isArray(node)) return node.map((item) => walk(item, ancestry));
    if (!isJsonObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) {
      if (ancestry.includes(ref)) return { ...node };
      const target = nodeAt(document, ref);
      if (target === undefined) throw new Error(`unresolvable reference in the bundled spec: ${ref}`);
      const { $ref: _ignored, ...siblings } = node;
      const resolved = walk(target, [...ancestry, ref]);
      // OpenAPI 3.1 allows keywords beside a $ref; they apply on top of the target.
      return Object.keys(siblings).length > 0 && isJsonObject(resolved)
        ? { ...resolved, ...(walk(siblings, ancestry) as JsonObject) }
        : resolved;
    }
    return Object.fromEntries(Object.entries(node).map(([key, inner]) => [key, walk(inner, ancestry)]));
  };
  return walk(value, []);
}

/** The `x-` extensions of a node. */
export function extensionsOf(node: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(node).filter(([key]) => key.startsWith('x-')));
}
