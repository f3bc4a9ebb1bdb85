// What a sandbox record looks like, taken from the spec: the documented example records serve as
// templates for the attributes the sandbox does not model, and a request field is copied into a
// record only when it is valid for that attribute of the record schema (request and record shapes
// differ for a few fields, such as `add_category_no` against `category`). Keeps every answer valid
// against the response schemas without restating them here; also gives the defaults the spec sets
// for query parameters (a list's sort order) and which query parameters filter by an attribute's
// value. The spec is read through its model.
import { isJsonObject, type JsonObject, type SpecModel } from '@mall-api/spec-model';

/** The validator of one attribute, or null when the schema has no such attribute. */
type AttributeCheck = ((value: unknown) => boolean) | null;

/** Record templates and per-attribute checks of one API document. */
export interface RecordShapes {
  /** A deep copy of the record inside a named example (`{category: {...}}` or the first of `{products: [...]}`). */
  template(exampleName: string): Record<string, unknown>;
  /** Deep copies of every record of a named list example (`{standardtags: [...]}`), in order. */
  records(exampleName: string): Record<string, unknown>[];
  /** The fields of `source` valid for the attributes of the schema component `schemaName`. */
  acceptedFields(schemaName: string, source: Record<string, unknown>): Record<string, unknown>;
  /** Whether `value` is valid for the attribute `field` of the schema component `schemaName`. */
  fits(schemaName: string, field: string, value: unknown): boolean;
  /** The default the spec gives the query parameter `name` of an operation (undefined if none). */
  queryDefault(operationId: string, name: string): unknown;
  /**
   * The query parameters of an operation that take values from an enum (or a list of them) and
   * name an attribute of the schema component `schemaName`: filters selecting that attribute by value.
   */
  enumFilters(operationId: string, schemaName: string): string[];
}

const pointerSegment = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

/** Builds the shapes of an API's spec model (the admin API's, the collection API's). */
export function recordShapes(model: SpecModel): RecordShapes {
  const checks = new Map<string, AttributeCheck>();
  const components = isJsonObject(model.document.components) ? model.document.components : {};
  const schemas = isJsonObject(components.schemas) ? components.schemas : {};
  const examples = isJsonObject(components.examples) ? components.examples : {};

  const checkFor = (schemaName: string, field: string): AttributeCheck => {
    const key = `${schemaName}/${field}`;
    let check = checks.get(key);
    if (check === undefined) {
      const schema = model.resolveOptional(schemas[schemaName]);
      const properties = isJsonObject(schema?.properties) ? schema.properties : {};
      if (field in properties) {
        const validate = model.schemas().compile({
          $ref: `#/components/schemas/${pointerSegment(schemaName)}/properties/${pointerSegment(field)}`,
        });
        check = (value) => validate(value) === true;
      } else check = null;
      checks.set(key, check);
    }
    return check;
  };
  /** Whether a parameter schema lists its values, or the values of its items. */
  const hasEnum = (schema: JsonObject): boolean => {
    const items = model.resolveOptional(schema.items);
    return Array.isArray(schema.enum) || Array.isArray(items?.enum);
  };
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

  return {
    template: (exampleName) => {
      const [first] = recordsOf(exampleName);
      if (!first) throw new Error(`the spec has no record example named ${exampleName}`);
      return first;
    },
    records: recordsOf,
    acceptedFields(schemaName, source) {
      return Object.fromEntries(
        Object.entries(source).filter(([field, value]) => fits(schemaName, field, value)),
      );
    },
    fits,
    enumFilters: (operationId, schemaName) =>
      (model.operation(operationId)?.parameters ?? [])
        .filter((p) => p.in === 'query' && hasEnum(p.schema) && checkFor(schemaName, p.name) !== null)
        .map((p) => p.name),
    queryDefault: (operationId, name) =>
      model.operation(operationId)?.parameters.find((p) => p.in === 'query' && p.name === name)?.schema
        .default,
  };
}
