// The invalid request bodies derived for a write operation from the rule extensions on its request
// schema (spec-model's `bodyRulesOf`): for each rule the example body reaches, the example with
// that one value replaced by the rule's breaking value, kept only when the body still conforms to
// the schema and breaks that rule alone. Not for sending anything (body-rule-checks.ts).
import {
  bodyRuleBreaches,
  bodyRulesOf,
  type Json,
  type OperationEntry,
  type SpecModel,
  valuesAt,
} from '@mall-api/spec-model';
import { bodyExample } from './request-bodies.js';

/** One derived invalid body and the field its violation must name. */
export interface BodyRuleCase {
  readonly name: string;
  readonly body: Json;
  readonly field: string;
}

/** `document` with the value at `path` replaced by `value` (a copy; `document` is left as it was). */
export function replaced(document: Json, path: readonly (string | number)[], value: Json): Json {
  const [step, ...rest] = path;
  if (step === undefined) return value;
  if (Array.isArray(document))
    return document.map((item, i) => (i === step ? replaced(item, rest, value) : item));
  if (document === null || typeof document !== 'object') return document;
  return { ...document, [step]: replaced(document[String(step)] ?? null, rest, value) };
}

/** Every body-rule case of `operation` (none without a JSON example body or rules). */
export function bodyRuleCases(model: SpecModel, operation: OperationEntry): BodyRuleCase[] {
  const example = bodyExample(model, operation);
  if (example === undefined || operation.bodySchema === undefined) return [];
  const rules = bodyRulesOf(model.dereference(operation.bodySchema));
  if (rules.length === 0) return [];
  const conforms = model.schemas().compile(operation.bodySchema);
  return rules.flatMap((rule) => {
    const [first] = valuesAt(example, rule.at);
    if (!first) return [];
    const value = rule.broken(first.value as Json, first.parent as Json);
    if (value === undefined) return [];
    const body = replaced(example, first.path, value);
    const own = bodyRuleBreaches([rule], body);
    const all = bodyRuleBreaches(rules, body);
    const [breach] = own;
    if (!breach || all.length !== own.length || !conforms(body)) return [];
    return [{ name: `${breach.field} breaking ${rule.kind}`, body, field: breach.field }];
  });
}
