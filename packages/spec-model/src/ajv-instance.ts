// The one Ajv configuration of the repository: JSON Schema 2020-12 (the dialect of OpenAPI 3.1),
// every error reported rather than the first, formats checked with `ajv-formats`, and OpenAPI's own
// keywords (`example`, `discriminator`, `x-…`) tolerated. The spec model's schema compiler, the docs
// console and the specs' tests all start from it. Browser-safe: no Node module is imported.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

/** A new Ajv instance configured as every validator of the mall APIs validates. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (formats as unknown as (instance: Ajv2020) => void)(ajv);
  return ajv;
}
