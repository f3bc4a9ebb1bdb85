// The request rules of an API, read from its spec through @mall-api/spec-model, each with a stable
// name (`credentials`, `scope`, `request-schema`, one per rule extension such as
// `x-mutually-exclusive:a,b` or `x-decimal-maximum:request.price`, and `rate-limit`). The coverage
// report lists them; the checks name those a refused request broke the same way. A new rule in the
// spec appears here without code changes; checking requests is not this module's job.
import {
  type BodyRule,
  bodyFieldName,
  bodyRulesOf,
  type OperationEntry,
  parameterRulesOf,
  type SpecModel,
} from '@mall-api/spec-model';

/** The names of the rules every API or operation may have besides the rule extensions. */
export const requestRuleNames = {
  credentials: 'credentials',
  scope: 'scope',
  schema: 'request-schema',
  rateLimit: 'rate-limit',
} as const;

/** One request rule of an API: of one operation, or (`operationId` null) of every call. */
export interface RequestRule {
  readonly operationId: string | null;
  readonly rule: string;
  readonly description: string;
}

/** The name of each rule extension, as the checks report it and the coverage report lists it. */
export const extensionRuleName = {
  mutuallyExclusive: (a: string, b: string) => `x-mutually-exclusive:${a},${b}`,
  notLessThan: (upper: string) => `x-not-less-than:${upper}`,
  requiresOneOf: (name: string, value: string) => `x-requires-one-of:${name}=${value}`,
  maxValuesPerKey: (name: string) => `x-max-values-per-key:${name}`,
  attributes: (name: string) => `x-query-attributes:${name}`,
  body: ({ kind, at }: Pick<BodyRule, 'kind' | 'at'>) => `${kind}:${bodyFieldName(at)}`,
} as const;

/** Reports the name of a rule a request broke (the checks call it for each broken rule). */
export type BrokenRule = (name: string) => void;

/** The rule extensions between or on an operation's query parameters. */
function parameterRules(operation: OperationEntry): RequestRule[] {
  const { operationId } = operation;
  const rules = parameterRulesOf(operation);
  const name = extensionRuleName;
  return [
    ...rules.mutuallyExclusive.map(([a, b]) => ({
      rule: name.mutuallyExclusive(a, b),
      description: `${a} and ${b} cannot be combined`,
    })),
    ...rules.notLessThan.map(({ upper, lower }) => ({
      rule: name.notLessThan(upper),
      description: `${upper} is not less than ${lower}`,
    })),
    ...rules.requiresOneOf.map(({ name: parameter, value, oneOf }) => ({
      rule: name.requiresOneOf(parameter, value),
      description: `${parameter}=${value} needs one of ${oneOf.join(', ')}`,
    })),
    ...rules.maxValuesPerKey.map(({ name: parameter, maximum }) => ({
      rule: name.maxValuesPerKey(parameter),
      description: `${parameter} has at most ${maximum} values per key`,
    })),
    ...rules.attributeFilters.map(({ name: parameter, attributes }) => ({
      rule: name.attributes(parameter),
      description: `${parameter} names one of ${attributes.join(', ')}`,
    })),
  ].map((rule) => ({ operationId, ...rule }));
}

/** The rule extensions on an operation's JSON request body schema (one entry per name). */
function bodyRules(spec: SpecModel, operation: OperationEntry): RequestRule[] {
  if (operation.bodySchema === undefined) return [];
  const names = new Set(bodyRulesOf(spec.dereference(operation.bodySchema)).map(extensionRuleName.body));
  return [...names].map((rule) => ({
    operationId: operation.operationId,
    rule,
    description: rule.replace(':', ' on '),
  }));
}

/** Whether an operation asks for credentials (its own `security`, else the document's, names a scheme). */
function needsCredentials(spec: SpecModel, operation: OperationEntry): boolean {
  const security = operation.definition.security ?? (spec.document as { security?: unknown }).security;
  return (
    Array.isArray(security) &&
    security.length > 0 &&
    security.every((requirement) => Object.keys(requirement ?? {}).length > 0)
  );
}

/** The rules an operation states. */
function operationRules(spec: SpecModel, operation: OperationEntry): RequestRule[] {
  const { operationId, requiredScope } = operation;
  const rules: RequestRule[] = [];
  if (needsCredentials(spec, operation))
    rules.push({ operationId, rule: requestRuleNames.credentials, description: 'credentials accepted' });
  if (requiredScope !== undefined && requiredScope !== 'none')
    rules.push({ operationId, rule: requestRuleNames.scope, description: `needs ${requiredScope}` });
  if (operation.parameters.length > 0 || operation.bodySchema !== undefined)
    rules.push({
      operationId,
      rule: requestRuleNames.schema,
      description: 'parameters and body match their schemas',
    });
  return [...rules, ...parameterRules(operation), ...bodyRules(spec, operation)];
}

/** The rules of each spec, worked out once. */
const rulesBySpec = new WeakMap<SpecModel, RequestRule[]>();

/** Every request rule of an API's spec: each operation's, then the API's rate limit. */
export function requestRulesOf(spec: SpecModel): readonly RequestRule[] {
  let rules = rulesBySpec.get(spec);
  if (!rules) {
    rules = [
      ...spec.operations.flatMap((operation) => operationRules(spec, operation)),
      { operationId: null, rule: requestRuleNames.rateLimit, description: 'the API’s rate limit' },
    ];
    rulesBySpec.set(spec, rules);
  }
  return rules;
}
