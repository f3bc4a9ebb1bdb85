// The error code each error status carries, as the spec pairs them (the `code` enum's
// `x-enumDescriptions`, "404: …", and the documented response's examples): an error answer with
// another code is a problem, whatever check sent it. Also the not-found check: a read of a record
// the server never issued must be the documented 404.
import type { Answer, AnswerChecks } from '@mall-api/mock-server/answer-checks';
import { isJsonObject, type Json, type OperationEntry, type SpecModel } from '@mall-api/spec-model';
import type { Check } from './check.js';
import { baselineParts, withIn } from './request-cases.js';
import { type CheckContext, readOperations } from './request-checks.js';

const objectAt = (model: SpecModel, value: Json | undefined) => model.resolveOptional(value) ?? {};

/** The codes the spec pairs with `status` on `operation`; empty when it documents none. */
export function pairedErrorCodes(model: SpecModel, operation: OperationEntry, status: number): string[] {
  const response = model.resolveOptional(operation.responses[String(status)]);
  const media = objectAt(model, objectAt(model, response?.content)['application/json']);
  const schema = model.resolveOptional(media.schema);
  const error = schema && objectAt(model, objectAt(model, schema.properties).error);
  const code = error && objectAt(model, objectAt(model, error.properties).code);
  const descriptions = objectAt(model, code?.['x-enumDescriptions']);
  const members = Array.isArray(code?.enum) ? code.enum : [];
  const byStatus = members.filter(
    (member): member is string =>
      typeof member === 'string' && String(descriptions[member] ?? '').startsWith(`${status}:`),
  );
  const examples = Object.values(objectAt(model, media.examples)).flatMap((example) => {
    const value = objectAt(model, example as Json).value;
    const shown = isJsonObject(value) && isJsonObject(value.error) ? value.error.code : undefined;
    return typeof shown === 'string' ? [shown] : [];
  });
  return [...new Set([...byStatus, ...examples])];
}

/** The problem of an error answer whose code the spec does not pair with its status. */
export function errorCodeProblems(model: SpecModel, operation: OperationEntry, answer: Answer): string[] {
  if (answer.status < 400) return [];
  const error = isJsonObject(answer.body) ? answer.body.error : undefined;
  const code = isJsonObject(error) ? error.code : undefined;
  const paired = pairedErrorCodes(model, operation, answer.status);
  if (paired.length === 0 || typeof code !== 'string' || paired.includes(code)) return [];
  return [`${answer.status} carries the error code ${code}, not ${paired.join(' or ')}`];
}

/** `checks` with the error-code problems added to every answer's. */
export function withErrorCodes(model: SpecModel, checks: AnswerChecks): AnswerChecks {
  return {
    ...checks,
    problems: (operation, answer) => [
      ...checks.problems(operation, answer),
      ...errorCodeProblems(model, operation, answer),
    ],
  };
}

/** A path value the server cannot have issued: past the schema's maximum id, or an unlikely name. */
const unknownValue = (schema: Record<string, Json>): Json =>
  schema.type === 'integer'
    ? typeof schema.maximum === 'number'
      ? schema.maximum
      : 2147483647
    : 'no-such-record-0';

/** The not-found check of every read addressing one record by path that documents 404. */
export function notFoundChecks(context: CheckContext): Check[] {
  return readOperations(context.model)
    .filter((operation) => operation.responseCodes.includes('404'))
    .flatMap((operation) => {
      const id = operation.parameters.filter((p) => p.in === 'path' && p.name !== 'shop_no').at(-1);
      if (!id) return [];
      return [
        {
          group: 'errors',
          subject: operation.operationId,
          name: `an unknown ${id.name} → 404 with its paired code`,
          async run() {
            const base = baselineParts(context.model, operation);
            const answer = await context.client.send({
              operation,
              parts: withIn(base, 'path', { [id.name]: unknownValue(id.schema) }),
            });
            const problems = context.answers.problems(operation, answer);
            return {
              problems: answer.status === 404 ? problems : [`answered ${answer.status}`, ...problems],
            };
          },
        },
      ];
    });
}
