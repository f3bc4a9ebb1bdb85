// @ts-check
// The copy of a spec that the reference page hands Redoc (docs/dist/specs/<api>.redoc.json): the
// docs' copy with its code samples, on one line, without the vendor extensions Redoc never shows
// (our rule markers such as `x-mock-enforced` or `x-provenance`), so each reference downloads less.
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
 * `value` without the extensions Redoc ignores.
 * @param {unknown} value
 * @returns {unknown}
 */
function strip(value) {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.startsWith('x-') || redocExtensions.has(key))
      .map(([key, item]) => [
        key,
        verbatim.has(key)
          ? key === 'properties' || key === 'headers'
            ? Object.fromEntries(
                Object.entries(/** @type {object} */ (item)).map(([name, entry]) => [name, strip(entry)]),
              )
            : item
          : strip(item),
      ]),
  );
}

/**
 * The JSON text Redoc renders for `spec` (the docs' copy, with code samples).
 * @param {unknown} spec
 */
export const redocSpecJson = (spec) => JSON.stringify(strip(spec));
