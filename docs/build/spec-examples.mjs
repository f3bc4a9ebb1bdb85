// @ts-check
// The spec's examples of an operation's input, read through the spec model: a parameter's example
// (its own, else its schema's example, default or first enum) typed as its schema says, and the
// first example of the JSON request body. The code samples and the console start from these.
import { parameterValue } from '@mall-api/spec-model';

/** @typedef {import('@mall-api/spec-model').SpecModel} SpecModel */
/** @typedef {import('@mall-api/spec-model').OperationEntry} OperationEntry */
/** @typedef {import('@mall-api/spec-model').OperationParameter} OperationParameter */

/**
 * The example value of a parameter: its own example(s), else its schema's example, default or
 * first enum.
 * @param {SpecModel} model
 * @param {OperationParameter} parameter
 */
export function parameterExample(model, parameter) {
  const { definition, schema } = parameter;
  if (definition.example !== undefined) return definition.example;
  const named = Object.values(definition.examples ?? {})[0];
  if (named !== undefined) return model.resolve(named).value;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  throw new Error(`parameter ${parameter.name} has no example`);
}

/**
 * The example typed as the parameter's schema and style say (a comma string of a list is split,
 * numerals of numbers become numbers), by the spec model's parameter conversion.
 * @param {SpecModel} model
 * @param {OperationParameter} parameter
 * @param {unknown} value
 */
export function typedValue(model, parameter, value) {
  const texts = Array.isArray(value) ? value.map(String) : String(value);
  return parameterValue(parameter, parameter.schema, texts, model.resolveOptional(parameter.schema.items));
}

/**
 * The first example of the operation's JSON request body, if it has one.
 * @param {SpecModel} model
 * @param {OperationEntry} operation
 */
export function requestBodyExample(model, operation) {
  const media = operation.jsonBody;
  if (!media) return undefined;
  const named = Object.values(media.examples ?? {})[0];
  const value = named !== undefined ? model.resolve(named).value : media.example;
  if (value === undefined && operation.bodyRequired)
    throw new Error(`${operation.operationId}: no request example`);
  return value === undefined ? undefined : { mediaType: 'application/json', value };
}
