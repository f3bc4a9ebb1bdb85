// The invalid request bodies derived for a write operation from the plain schema keywords of the
// record its example sends: per keyword (`minimum`, `maximum`, `enum`, `maxLength`, `pattern`,
// `maxItems`, the type, a missing required attribute) the example with the first attribute having
// it broken, kept only when the schema refuses it. The `x-` body rules are body-rule-cases.ts's.
import {
  isJsonObject,
  type Json,
  type JsonObject,
  type OperationEntry,
  type OperationParameter,
  type SpecModel,
} from '@mall-api/spec-model';
import { type BodyRuleCase, replaced } from './body-rule-cases.js';
import { invalidValues, itemsOf, type ParameterValue } from './parameter-values.js';
import { bodyExample } from './request-bodies.js';

/** The invalid values of one attribute's schema, a string's wrong type included. */
function brokenValues(model: SpecModel, name: string, schema: JsonObject, example: Json): ParameterValue[] {
  const items = model.resolveOptional(schema.items) ?? itemsOf(schema);
  const parameter = { name, in: 'query', required: false, schema, definition: { example }, extensions: {} };
  return [
    ...invalidValues(parameter as OperationParameter, items),
    ...(schema.type === 'string' ? [{ value: 12345, label: 'type' }] : []),
  ];
}

/** One invalid body per plain schema keyword of the record `operation`'s example sends. */
export function schemaBodyCases(model: SpecModel, operation: OperationEntry): BodyRuleCase[] {
  const example = bodyExample(model, operation);
  if (!isJsonObject(example) || operation.bodySchema === undefined) return [];
  const conforms = model.schemas().compile(operation.bodySchema);
  if (!conforms(example)) return [];
  const schema = model.dereference(operation.bodySchema) as JsonObject;
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const byKeyword = new Map<string, BodyRuleCase>();
  const keep = (label: string, testCase: BodyRuleCase) => {
    if (!byKeyword.has(label) && !conforms(testCase.body)) byKeyword.set(label, testCase);
  };
  for (const [key, record] of Object.entries(example)) {
    const recordSchema = properties[key];
    if (!isJsonObject(record) || !isJsonObject(recordSchema) || !isJsonObject(recordSchema.properties))
      continue;
    for (const [name, value] of Object.entries(record)) {
      const attribute = recordSchema.properties[name];
      if (!isJsonObject(attribute)) continue;
      for (const broken of brokenValues(model, name, attribute, value))
        keep(broken.label, {
          name: `${key}.${name} breaking ${broken.label}`,
          body: replaced(example, [key, name], broken.value),
          field: `${key}.${name}`,
        });
    }
    const required = Array.isArray(recordSchema.required) ? recordSchema.required : [];
    const missing = required.find((name): name is string => typeof name === 'string' && name in record);
    if (missing)
      keep('required', {
        name: `${key}.${missing} missing (required)`,
        body: {
          ...example,
          [key]: Object.fromEntries(Object.entries(record).filter(([n]) => n !== missing)),
        },
        field: `${key}.${missing}`,
      });
  }
  return [...byKeyword.values()];
}
