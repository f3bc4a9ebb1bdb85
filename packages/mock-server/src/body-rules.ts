// Rules about a JSON request body that JSON Schema cannot express but the request alone settles
// (the admin spec lists them under `x-mock-enforced`), keyed by operationId. Each broken rule is a
// violation naming the field, answered with 422. Rules that need stored state (unknown ids) belong
// to the sandbox, not here.
import type { Violation } from './error-envelope.js';

/** A rule about the body of one operation. */
export type BodyRule = (body: unknown) => Violation[];

/** Rules per operationId. */
const rulesByOperation: Readonly<Record<string, readonly BodyRule[]>> = {};

/** All body violations of a request to the operation `operationId`. */
export function bodyRuleViolations(operationId: string, body: unknown): Violation[] {
  return (rulesByOperation[operationId] ?? []).flatMap((rule) => rule(body));
}
