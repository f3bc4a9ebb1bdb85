// Test support: validates values against schemas of a bundled OpenAPI 3.1 document with Ajv's
// JSON Schema 2020-12 dialect, resolving `#/components/...` references inside the document, and
// finds the platform's published example payloads vendored beside the tests. The Ajv instance is the
// repository's one configuration, spec-model's `createAjv`, imported from its source: spec-model
// depends on this package, so it cannot be a dependency of it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAjv } from '../../packages/spec-model/src/ajv-instance.js';

export type OpenApiDocument = {
  paths: Record<string, Record<string, unknown>>;
  /** The events the API sends (OpenAPI 3.1 `webhooks`), keyed by name. */
  webhooks?: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
};

/** `specs/test/reference-examples/<api>`: the platform's published payloads, vendored (see its README). */
export function referenceExamplesDir(api: string): string {
  return join(import.meta.dirname, 'reference-examples', api);
}

/** Loads `specs/dist/<api>.openapi.json`. */
export function loadBundle(api: string): OpenApiDocument {
  return JSON.parse(readFileSync(join(import.meta.dirname, '..', 'dist', `${api}.openapi.json`), 'utf8'));
}

/** Returns `validate(schemaPointer, value)` → list of error strings (empty when valid). */
export function schemaValidator(document: OpenApiDocument) {
  const ajv = createAjv();
  ajv.addSchema({ ...document, $id: 'openapi' });
  return (pointer: string, value: unknown): string[] => {
    const validate = ajv.getSchema(`openapi#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}
