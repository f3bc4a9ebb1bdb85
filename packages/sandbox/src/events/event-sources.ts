// Which admin write records which event, read from the spec: each webhook names in `x-emitted-by`
// the operations it reports, and its body schema the attributes of its `resource`; a delete reads
// the record first through the read operation at its path. No event number, operation or attribute
// is written here: a change to the spec changes what the sandbox records.
import { isJsonObject, type JsonObject, type SpecModel, webhooksOf } from '@mall-api/spec-model';

/** What one write operation's committed write records. */
export interface EventSource {
  /** The `event_no` of the event it records. */
  readonly eventNo: number;
  /** The attribute names of the event's `resource`, in the schema's order. */
  readonly attributes: readonly string[];
  /** For a delete: the read (get) operation at its path, which gives the record before the write. */
  readonly readOperationId: string | undefined;
}

/** The property names a dereferenced object schema declares, through `allOf`. */
function propertyNames(schema: unknown): string[] {
  if (!isJsonObject(schema)) return [];
  const own = isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
  const parts = Array.isArray(schema.allOf) ? schema.allOf.flatMap(propertyNames) : [];
  return [...new Set([...own, ...parts])];
}

/** The `resource` schema of an event body (dereferenced). */
function resourceSchema(model: SpecModel, bodySchema: JsonObject): unknown {
  const body = model.dereference(bodySchema);
  const properties = isJsonObject(body) && isJsonObject(body.properties) ? body.properties : {};
  return properties.resource;
}

/**
 * The event each write operation of the admin `model` records, by operationId. Throws when an
 * `x-emitted-by` names an operation the document does not have (the lint refuses that too).
 */
export function eventSourcesOf(model: SpecModel): ReadonlyMap<string, EventSource> {
  const sources = new Map<string, EventSource>();
  for (const event of webhooksOf(model.document)) {
    const attributes = propertyNames(resourceSchema(model, event.bodySchema));
    for (const operationId of event.emittedBy) {
      const write = model.operation(operationId);
      if (!write)
        throw new Error(`the event ${event.name} is emitted by ${operationId}, which is no operation`);
      const read =
        write.method === 'delete'
          ? model.operations.find(
              (operation) => operation.method === 'get' && operation.pathTemplate === write.pathTemplate,
            )
          : undefined;
      sources.set(operationId, { eventNo: event.eventNo, attributes, readOperationId: read?.operationId });
    }
  }
  return sources;
}
