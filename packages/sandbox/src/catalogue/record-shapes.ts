// What a sandbox record looks like, taken from the spec model: a new record starts from its create
// request's `default`s, every other nullable attribute null, and a request field is copied only
// when valid for the record schema, so answers stay valid. Also the spec's query defaults and
// meanings, `x-refers-to` and `x-per-shop` fields, example records and the events' read scopes.
import {
  isJsonObject,
  type JsonObject,
  perShopAttributesOf,
  type QueryMeaning,
  queryMeaningsOf,
  type RecordReference,
  recordReferencesOf,
  type SpecModel,
  webhooksOf,
} from '@mall-api/spec-model';
import { cached, memo } from '../support/memo.js';

/** The validator of one attribute, or null when the schema has no such attribute. */
type AttributeCheck = ((value: unknown) => boolean) | null;

const pointerSegment = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Record templates and per-attribute checks of an API's spec model (the admin API's, the
 * collection API's).
 */
export function recordShapes(model: SpecModel) {
  const checks = new Map<string, AttributeCheck>();
  const components = isJsonObject(model.document.components) ? model.document.components : {};
  const schemas = isJsonObject(components.schemas) ? components.schemas : {};
  const examples = isJsonObject(components.examples) ? components.examples : {};

  /** The attributes of the schema component `schemaName`, by name. */
  const propertiesOf = (schemaName: string): JsonObject => {
    const schema = model.resolveOptional(schemas[schemaName]);
    return isJsonObject(schema?.properties) ? schema.properties : {};
  };
  const checkFor = (schemaName: string, field: string): AttributeCheck =>
    cached(checks, `${schemaName}/${field}`, (): AttributeCheck => {
      if (!(field in propertiesOf(schemaName))) return null;
      const validate = model.schemas().compile({
        $ref: `#/components/schemas/${pointerSegment(schemaName)}/properties/${pointerSegment(field)}`,
      });
      return (value: unknown) => validate(value) === true;
    });
  const component = (schemaName: string) =>
    model.dereference({ $ref: `#/components/schemas/${pointerSegment(schemaName)}` });
  const fits = (schemaName: string, field: string, value: unknown) =>
    checkFor(schemaName, field)?.(value) === true;

  /** The records inside a named example: the first property's list, or its one record. */
  const recordsOf = (exampleName: string): Record<string, unknown>[] => {
    const example = model.resolveOptional(examples[exampleName]);
    const value = isJsonObject(example?.value) ? example.value : undefined;
    const first = value ? Object.values(value)[0] : undefined;
    const records = Array.isArray(first) ? first : [first];
    return records.filter(isJsonObject).map((record) => structuredClone(record) as Record<string, unknown>);
  };

  /** The properties of an operation's `request` object, dereferenced. */
  const requestFields = (operationId: string): JsonObject => {
    const body = model.resolveOptional(model.operation(operationId)?.bodySchema);
    const request = isJsonObject(body?.properties)
      ? model.resolveOptional(body.properties.request)
      : undefined;
    return isJsonObject(request?.properties) ? request.properties : {};
  };
  const firstRecordOf = (schemaName: string, operationId: string): Record<string, unknown> => {
    const attributes = Object.keys(propertiesOf(schemaName));
    // A `default` beside a `$ref` is the field's own; else the referenced schema's.
    const defaults = Object.entries(requestFields(operationId)).flatMap(([field, raw]) => {
      const value = isJsonObject(raw) && 'default' in raw ? raw.default : model.resolveOptional(raw)?.default;
      return value === undefined || !fits(schemaName, field, value) ? [] : [[field, value]];
    });
    return {
      ...Object.fromEntries(attributes.filter((a) => fits(schemaName, a, null)).map((a) => [a, null])),
      ...Object.fromEntries(defaults),
    };
  };
  const firstRecords = memo((schemaName: string) =>
    memo((operationId: string) => firstRecordOf(schemaName, operationId)),
  );
  return {
    /**
     * What a record of the schema component `schemaName` created by `operationId` holds before the
     * request is applied: each request field's documented `default` (where the record has that
     * attribute), every other attribute that may be null as null (a fresh copy each call).
     */
    newRecord: (schemaName: string, operationId: string): Record<string, unknown> =>
      structuredClone(firstRecords(schemaName)(operationId)),
    /** A deep copy of the record inside a named example (`{category: {...}}` or the first of `{products: [...]}`). */
    template: (exampleName: string) => {
      const [first] = recordsOf(exampleName);
      if (!first) throw new Error(`the spec has no record example named ${exampleName}`);
      return first;
    },
    /** Deep copies of every record of a named list example (`{standardtags: [...]}`), in order. */
    records: recordsOf,
    /** The fields of `source` valid for the attributes of the schema component `schemaName`. */
    acceptedFields(schemaName: string, source: Record<string, unknown>): Record<string, unknown> {
      return Object.fromEntries(
        Object.entries(source).filter(([field, value]) => fits(schemaName, field, value)),
      );
    },
    /** Whether `value` is valid for the attribute `field` of the schema component `schemaName`. */
    fits,
    /** The values the attribute `field` of `schemaName` (or each of its items) may take, if it lists them. */
    enumOf(schemaName: string, field: string): readonly unknown[] {
      const attribute = model.resolveOptional(propertiesOf(schemaName)[field]);
      const items = model.resolveOptional(attribute?.items);
      const values = attribute?.enum ?? items?.enum;
      return Array.isArray(values) ? values.filter((value) => value !== null) : [];
    },
    /** The declared meanings of an operation's query parameters (none for an unknown operation). */
    queryMeanings: memo((operationId: string): readonly QueryMeaning[] => {
      const operation = model.operation(operationId);
      return operation ? queryMeaningsOf(operation) : [];
    }),
    /** The fields of an operation's request body that name other records (none without a body). */
    requestReferences: memo((operationId: string): readonly RecordReference[] => {
      const body = model.operation(operationId)?.bodySchema;
      return body ? recordReferencesOf(model.dereference(body)) : [];
    }),
    /** The attributes of a record of the schema component `schemaName` that name other records. */
    recordReferences: memo((schemaName: string) => recordReferencesOf(component(schemaName))),
    /** The attributes of the schema component `schemaName` each shop of a multi-shop mall keeps for itself. */
    perShopAttributes: memo((schemaName: string): readonly string[] => {
      const schema = component(schemaName);
      return isJsonObject(schema) ? perShopAttributesOf(schema) : [];
    }),
    /** The scopes an app needs to receive the document's events, each once, in the order first needed. */
    eventScopes: [
      ...new Set(webhooksOf(model.document).flatMap(({ requiredScope }) => requiredScope ?? [])),
    ] as readonly string[],
    /** The default the spec gives the query parameter `name` of an operation (undefined if none). */
    queryDefault: (operationId: string, name: string): unknown =>
      model.operation(operationId)?.parameters.find((p) => p.in === 'query' && p.name === name)?.schema
        .default,
  };
}

/** Record templates and per-attribute checks of one API document (see {@link recordShapes}). */
export type RecordShapes = ReturnType<typeof recordShapes>;
