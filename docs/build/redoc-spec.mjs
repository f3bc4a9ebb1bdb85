// @ts-check
// The copy of a spec that the reference page hands Redoc (docs/dist/specs/<api>.redoc.json): the
// docs' copy with its code samples, on one line, without the vendor extensions Redoc never shows
// (our rule markers such as `x-mock-enforced` or `x-provenance`), so each reference downloads less,
// with nullable fields written so Redoc labels them plainly ("string or null"), and with a server
// address that is one variable (`{collection_base_url}`) written as its default, which Redoc would
// otherwise take for a path relative to the page.
// The downloadable specs beside it keep everything.

/** The vendor extensions Redoc reads; every other `x-` key is left out. */
const redocExtensions = new Set([
  'x-codeSamples',
  'x-tagGroups',
  'x-logo',
  'x-displayName',
  'x-traitTag',
  'x-enumDescriptions',
  'x-nullable',
  'x-badges',
  'x-servers',
  'x-webhooks',
  'x-summary',
]);
/** Keys whose values are data or maps of names, copied as they are. */
const verbatim = new Set([
  'example',
  'examples',
  'default',
  'enum',
  'const',
  'properties',
  'headers',
  'mapping',
]);

/**
 * The schema a local `$ref` points at in `root`.
 * @param {any} root
 * @param {string} ref
 */
const resolveRef = (root, ref) =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], root);

/**
 * A nullable schema written the OpenAPI 3.1 way, `anyOf: [<schema>, {type: 'null'}]`, as one
 * schema with `type: [<type>, 'null']`, which Redoc shows as "string or null" (it shows the
 * `anyOf` as "<Name> (string) or null"); other schemas as they are.
 * @param {any} schema
 * @param {any} root
 */
function plainNullable(schema, root) {
  const choices = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(choices) || choices.length !== 2) return schema;
  const nullIndex = choices.findIndex(
    (choice) => choice?.type === 'null' && Object.keys(choice).length === 1,
  );
  if (nullIndex < 0) return schema;
  const other = choices[1 - nullIndex];
  const target = typeof other?.$ref === 'string' ? resolveRef(root, other.$ref) : other;
  if (!target || typeof target.type !== 'string' || target.anyOf || target.oneOf || target.allOf)
    return schema;
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
  const { title: _title, ...shape } = target;
  // null stays a valid value where the type lists its values.
  const values = Array.isArray(shape.enum) ? { enum: [...shape.enum, null] } : {};
  return { ...shape, ...rest, ...values, type: [target.type, 'null'] };
}

/**
 * `value` without the extensions Redoc ignores, its nullable schemas written plainly.
 * @param {unknown} value
 * @param {any} root the whole document, for `$ref`s
 * @returns {unknown}
 */
function strip(value, root) {
  if (Array.isArray(value)) return value.map((item) => strip(item, root));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(plainNullable(value, root))
      .filter(([key]) => !key.startsWith('x-') || redocExtensions.has(key))
      .map(([key, item]) => [
        key,
        verbatim.has(key)
          ? key === 'properties' || key === 'headers'
            ? Object.fromEntries(
                Object.entries(/** @type {object} */ (item)).map(([name, entry]) => [
                  name,
                  strip(entry, root),
                ]),
              )
            : item
          : strip(item, root),
      ]),
  );
}

/**
 * A server whose address is not absolute (only variables, `{collection_base_url}`) with the
 * variables' defaults filled in; other servers as they are.
 * @param {{ url: string, variables?: Record<string, { default: string }> }} server
 */
function absoluteServer(server) {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(server.url)) return server;
  const { variables = {}, ...rest } = server;
  return { ...rest, url: server.url.replace(/\{([^}]+)\}/g, (name, key) => variables[key]?.default ?? name) };
}

/**
 * The JSON text Redoc renders for `spec` (the docs' copy, with code samples).
 * @param {unknown} spec
 */
export function redocSpecJson(spec) {
  const copy = /** @type {{ servers?: any[] }} */ (strip(spec, spec));
  if (copy.servers) copy.servers = copy.servers.map(absoluteServer);
  return JSON.stringify(copy);
}
