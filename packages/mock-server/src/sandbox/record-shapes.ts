// What a sandbox record looks like, taken from the spec: the documented example records serve as
// templates for the attributes the sandbox does not model, and a request field is copied into a
// record only when it is valid for that attribute of the record schema (request and record shapes
// differ for a few fields, such as `add_category_no` against `category`). Keeps every answer valid
// against the response schemas without restating them here.

import type { Json } from '@mall-api/spec-model';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

type JsonObject = { [key: string]: Json };
const documentId = 'sandbox-openapi';

/** Record templates and per-attribute checks of one API document. */
export interface RecordShapes {
  /** A deep copy of the record inside a named example (`{category: {...}}` or the first of `{products: [...]}`). */
  template(exampleName: string): Record<string, unknown>;
  /** The fields of `source` valid for the attributes of the schema component `schemaName`. */
  acceptedFields(schemaName: string, source: Record<string, unknown>): Record<string, unknown>;
  /** Whether `value` is valid for the attribute `field` of the schema component `schemaName`. */
  fits(schemaName: string, field: string, value: unknown): boolean;
}

/** Builds the shapes of a bundled document (the admin API's). */
export function recordShapes(document: JsonObject): RecordShapes {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema({ ...document, $id: documentId });
  const validators = new Map<string, ValidateFunction | null>();
  const components = (document.components ?? {}) as JsonObject;
  const schemas = (components.schemas ?? {}) as JsonObject;
  const examples = (components.examples ?? {}) as JsonObject;

  const validatorFor = (schemaName: string, field: string): ValidateFunction | null => {
    const key = `${schemaName}/${field}`;
    let validate = validators.get(key);
    if (validate === undefined) {
      const properties = ((schemas[schemaName] as JsonObject | undefined)?.properties ?? {}) as JsonObject;
      validate =
        field in properties
          ? ajv.compile({
              $ref: `${documentId}#/components/schemas/${schemaName}/properties/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`,
            })
          : null;
      validators.set(key, validate);
    }
    return validate;
  };
  const fits = (schemaName: string, field: string, value: unknown) =>
    validatorFor(schemaName, field)?.(value) === true;

  return {
    template(exampleName) {
      const example = examples[exampleName] as JsonObject | undefined;
      const value = example?.value as JsonObject | undefined;
      const first = value ? Object.values(value)[0] : undefined;
      const inner = Array.isArray(first) ? first[0] : first;
      if (!inner || typeof inner !== 'object' || Array.isArray(inner)) {
        throw new Error(`the spec has no record example named ${exampleName}`);
      }
      return structuredClone(inner) as Record<string, unknown>;
    },
    acceptedFields(schemaName, source) {
      return Object.fromEntries(
        Object.entries(source).filter(([field, value]) => fits(schemaName, field, value)),
      );
    },
    fits,
  };
}
