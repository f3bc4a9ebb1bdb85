// Browser-safe entry point of @mall-api/spec-model (`@mall-api/spec-model/browser`): the parts of
// the spec's interpretation a page needs without Node — the one Ajv configuration, parameter
// serialization, violation naming and the API names. The main entry re-exports the same functions.

export { createAjv } from './ajv-instance.js';
export { type ApiName, apiNames, type SpecName } from './api-names.js';
export {
  parameterExplodes,
  parameterStyle,
  parameterTexts,
  parameterValue,
  type SerializedParameter,
  scalarValue,
} from './parameter-values.js';
export {
  type FieldNaming,
  fieldViolation,
  isReportedError,
  type NamedViolation,
  parameterViolation,
} from './violation-naming.js';
