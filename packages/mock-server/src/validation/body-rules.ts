// The rules about a JSON request body that JSON Schema cannot express but the request alone
// settles: the rule extensions on the operation's request schema, as @mall-api/spec-model's
// `bodyRulesOf` reads and interprets them (shared with the conformance runner), worked out once per
// operation. Each broken rule is a 422 violation naming the field (`request.<field>/<index>/…`, like
// the spec's examples). Rules that need stored state (ids, stored values, mall settings) are the sandbox's.
import { bodyRuleBreaches, bodyRulesOf, type SpecModel } from '@mall-api/spec-model';
import type { Violation } from '../http/error-envelope.js';
import { type BrokenRule, extensionRuleName } from './request-rules.js';

/** Checks one request body against an operation's body rules (`broken` hears each broken rule's name). */
export type BodyRuleCheck = (body: unknown, broken?: BrokenRule) => Violation[];

/**
 * Works out an operation's body rules once from its JSON request schema and returns the check for
 * its request bodies (no rules: a check that finds nothing).
 */
export function compileBodyRules(model: SpecModel, operationId: string): BodyRuleCheck {
  const schema = model.operation(operationId)?.bodySchema;
  if (schema === undefined) return () => [];
  const rules = bodyRulesOf(model.dereference(schema));
  if (rules.length === 0) return () => [];
  return (body, broken) => {
    const violations = bodyRuleBreaches(rules, body).map(
      ({ field, message }): Violation => ({ location: 'body', name: field, message }),
    );
    // Which rules broke is worked out again, one rule at a time, only for a refused body that asks.
    if (broken && violations.length > 0)
      for (const rule of rules)
        if (bodyRuleBreaches([rule], body).length > 0) broken(extensionRuleName.body(rule));
    return violations;
  };
}
