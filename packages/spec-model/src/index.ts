// Public entry point of @mall-api/spec-model: the one reader of the bundled specs (the browser-safe
// part is also served alone by `./browser.js`).

export { type ApiVersions, answeringVersion, apiVersionsOf, declaredApiVersionsOf } from './api-versions.js';
export {
  type BodyRule,
  type BodyRuleBreach,
  type BodyRuleKind,
  type BodyStep,
  bodyFieldName,
  bodyRuleBreaches,
  bodyRuleKinds,
  bodyRulesOf,
  type LocatedValue,
  valuesAt,
} from './body-rules.js';
export * from './browser.js';
export { errorCodesOf } from './error-codes.js';
export {
  dereference,
  extensionsOf,
  isJsonObject,
  type Json,
  type JsonObject,
  nodeAt,
  resolve,
  resolveOptional,
} from './json-document.js';
export {
  compareSpecificity,
  type HttpMethod,
  httpMethods,
  indexOperations,
  type OperationEntry,
  type OperationParameter,
} from './operation-index.js';
export { linksOf, linkValue, type OperationLink } from './operation-links.js';
export {
  hasNoParameterRules,
  type OrderedParameters,
  type ParameterRules,
  parameterRulesOf,
  type ValueRequirement,
} from './parameter-rules.js';
export {
  type FilterMatch,
  type FilterMeaning,
  fieldTester,
  filterMatches,
  filtersAmong,
  type ModifierMeaning,
  mallParameterOf,
  type PeriodMeaning,
  type PlainMeaning,
  type ProjectionMeaning,
  type QueryMeaning,
  QueryMeaningError,
  type QueryProvenance,
  type QueryRole,
  queryMeaningsOf,
  queryRoles,
  recordValues,
  type SubsetMeaning,
} from './query-meanings.js';
export {
  perShopAttributesOf,
  type RecordReference,
  RecordReferenceError,
  type ReferencedResource,
  type ReferenceExclusion,
  recordReferencesOf,
  referencedResources,
  referencedValues,
  referenceExclusions,
} from './record-references.js';
export { createSchemaCompiler, type SchemaCompiler } from './schema-compiler.js';
export {
  httpsOnlyStatusOf,
  scopeAliasesOf,
  type TokenLifetimes,
  tokenLifetimesOf,
} from './security-extensions.js';
export {
  type ApiSpecs,
  bundledSpecPath,
  createSpecModel,
  loadSpec,
  loadSpecSync,
  loadSpecs,
  type Route,
  type SpecModel,
} from './spec-model.js';
export { type WebhookDelivery, webhookDeliveryOf } from './webhook-delivery.js';
export { type WebhookEntry, webhooksOf } from './webhook-index.js';
