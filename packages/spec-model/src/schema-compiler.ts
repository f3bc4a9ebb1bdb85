// Ajv registration of a bundled document: one instance of the repository's Ajv configuration
// (ajv-instance.ts) with the whole document added under one id, so any schema taken from the
// document — references to `#/components/...` included — compiles as written. A schema is compiled
// once: its validator is kept under the schema's JSON text, so an equal schema built anew (a
// `{ $ref }` to a component, a parameter object of an operation, each sandbox or server started in
// the process) gets the same validator (Ajv's own cache, keyed by the schema object, misses, since
// the references are rewritten into a new object on each call).
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from './ajv-instance.js';
import { isJsonObject, type Json, type JsonObject } from './json-document.js';

/** Compiles schemas taken from one document. */
export interface SchemaCompiler {
  /** The Ajv instance holding the document (add keywords or formats to it before compiling). */
  readonly ajv: Ajv2020;
  /** Compiles a schema whose local `#/…` references point into the document (once per JSON text). */
  compile(schema: Json): ValidateFunction;
}

const documentId = 'urn:mall-api:openapi';

/** Rewrites the local `#/…` references of a schema to the registered document's id. */
function anchorRefs(value: Json): Json {
  if (Array.isArray(value)) return value.map(anchorRefs);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#')
        ? [key, `${documentId}${inner}`]
        : [key, anchorRefs(inner)],
    ),
  );
}

/** Registers `document` in a new Ajv instance. */
export function createSchemaCompiler(document: JsonObject): SchemaCompiler {
  const ajv = createAjv();
  ajv.addSchema({ ...document, $id: documentId });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (schema: Json): ValidateFunction => {
    const text = JSON.stringify(schema);
    let validate = compiled.get(text);
    if (!validate) {
      validate = ajv.compile(anchorRefs(schema) as object);
      compiled.set(text, validate);
    }
    return validate;
  };
  return { ajv, compile };
}
