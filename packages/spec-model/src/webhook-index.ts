// The events a bundled document declares under OpenAPI 3.1 `webhooks`: one entry per event with
// its name, operationId, the event number its body's `event_no` is fixed to (`const`), the read
// scope an app needs to receive it (`x-required-scope`), the operations whose writes send it
// (`x-emitted-by`) and the body schema. Read by the sandbox (the scopes a mall shares, the events its
// writes record) and the admin client's code generator (the event numbers a delivery may
// carry); the events are not routes, so they stay out of the operation index.
import { extensionsOf, isJsonObject, type JsonObject, resolveOptional } from './json-document.js';
import { httpMethods } from './operation-index.js';

/** One event of the document. */
export interface WebhookEntry {
  /** The key under `webhooks`. */
  readonly name: string;
  readonly operationId: string;
  /** The number the body's `event_no` is fixed to. */
  readonly eventNo: number;
  /** `x-required-scope`: the scope an app needs to receive the event, if declared. */
  readonly requiredScope: string | undefined;
  /** `x-emitted-by`: the operationIds whose committed writes the sandbox reports with the event. */
  readonly emittedBy: readonly string[];
  /** The JSON body's schema, as written. */
  readonly bodySchema: JsonObject;
  /** The operation's own `x-` extensions. */
  readonly extensions: JsonObject;
}

/** The `const` of `event_no` in a body schema (through its `$ref`), if it fixes one. */
function eventNoOf(document: JsonObject, schema: JsonObject): number | undefined {
  const body = resolveOptional(document, schema);
  const properties = resolveOptional(document, body?.properties);
  const eventNo = resolveOptional(document, properties?.event_no);
  return typeof eventNo?.const === 'number' ? eventNo.const : undefined;
}

/**
 * The events of a bundled document, in the order it lists them. Throws for an event whose JSON
 * body does not fix `event_no` to a number: without it a delivery cannot be told apart.
 */
export function webhooksOf(document: JsonObject): WebhookEntry[] {
  const webhooks = isJsonObject(document.webhooks) ? document.webhooks : {};
  return Object.entries(webhooks).flatMap(([name, itemRef]) => {
    const item = resolveOptional(document, itemRef) ?? {};
    return httpMethods.flatMap((method) => {
      const operation = resolveOptional(document, item[method]);
      if (!operation) return [];
      const body = resolveOptional(document, operation.requestBody);
      const content = resolveOptional(document, body?.content);
      const json = resolveOptional(document, content?.['application/json']);
      const bodySchema = isJsonObject(json?.schema) ? json.schema : {};
      const eventNo = eventNoOf(document, bodySchema);
      if (eventNo === undefined) throw new Error(`the event ${name} does not fix event_no in its JSON body`);
      const scope = operation['x-required-scope'];
      const emitted = resolveOptional(document, operation['x-emitted-by']);
      const operations = Array.isArray(emitted?.operations) ? emitted.operations : [];
      return [
        {
          name,
          operationId: String(operation.operationId),
          eventNo,
          requiredScope: typeof scope === 'string' ? scope : undefined,
          emittedBy: operations.filter((id): id is string => typeof id === 'string'),
          bodySchema,
          extensions: extensionsOf(operation),
        },
      ];
    });
  });
}
