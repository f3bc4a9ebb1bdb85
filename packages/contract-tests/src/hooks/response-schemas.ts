// The schema Dredd checks a response body against. Dredd's OpenAPI parser does not read a 3.1
// document's schemas (it would only check the example's keys), so the hooks give it the response's
// schema, dereferenced by spec-model, as a draft-07 document (the newest Gavel knows) carrying the
// component schemas a recursive reference needs. Keywords draft 07 lacks are ignored, which only
// makes the check more lenient.
import type { Json, OperationEntry, SpecModel } from '@mall-api/spec-model';

const draft07 = 'http://json-schema.org/draft-07/schema#';

/** The response body schemas of one spec, by operation and status. */
export interface ResponseSchemas {
  /** The schema (JSON text) of the JSON body `operation` answers with `status`, if it documents one. */
  bodySchema(operation: OperationEntry, status: number): string | undefined;
}

/** Builds the lookup for one spec model. */
export function createResponseSchemas(model: SpecModel): ResponseSchemas {
  const schemas = model.resolveOptional(model.document.components)?.schemas ?? {};
  const components: Json = { schemas };
  const cache = new Map<string, string | undefined>();
  return {
    bodySchema(operation, status) {
      const key = `${operation.operationId} ${status}`;
      if (!cache.has(key)) {
        const response = model.resolveOptional(operation.responses[String(status)]);
        const content = model.resolveOptional(response?.content);
        const schema = model.resolveOptional(content?.['application/json'])?.schema;
        cache.set(
          key,
          schema === undefined
            ? undefined
            : JSON.stringify({ $schema: draft07, components, allOf: [model.dereference(schema)] }),
        );
      }
      return cache.get(key);
    },
  };
}
