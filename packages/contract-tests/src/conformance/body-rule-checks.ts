// The checks of the invalid bodies derived from the body rules (body-rule-cases.ts) and the plain
// schema keywords (schema-body-cases.ts), one per case of every write operation: the answer is the
// validation status with a violation naming the field, and the write changes nothing
// (refused-writes.ts). Sent to the records the operation's examples name.

import { bodyRuleCases } from './body-rule-cases.js';
import type { Check } from './check.js';
import { sendRefusedWrite } from './refused-writes.js';
import { baselineParts } from './request-cases.js';
import { type CheckContext, refusalProblems } from './request-checks.js';
import { schemaBodyCases } from './schema-body-cases.js';

/** The body-rule checks of every write operation. */
export function bodyRuleChecks(context: CheckContext): Check[] {
  return context.model.operations
    .filter((operation) => operation.method !== 'get' && operation.requiredScope !== 'none')
    .flatMap((operation) =>
      [...bodyRuleCases(context.model, operation), ...schemaBodyCases(context.model, operation)].map(
        (testCase) => ({
          group: 'requests',
          subject: operation.operationId,
          name: testCase.name,
          async run() {
            const { answer, problems } = await sendRefusedWrite(context, {
              operation,
              parts: baselineParts(context.model, operation),
              body: testCase.body,
            });
            return {
              problems: refusalProblems(
                operation,
                answer,
                [testCase.field],
                [...context.answers.problems(operation, answer), ...problems],
              ),
            };
          },
        }),
      ),
    );
}
