// What every answer of an API must satisfy, read from the spec: a documented status and content
// type, a body valid against the response's JSON Schema 2020-12, the error envelope on errors, and
// the declared rate-limit headers, consistent with each other and with `x-rate-limit`. Returns the
// problems found (none: a conforming answer); used by the validating proxy and the conformance
// runner of @mall-api/contract-tests. Not for what a request asked for.
import { apiLimitFromSpec, type HeaderField, policyLimit } from '@mall-api/rate-limit';
import type { Json, OperationEntry, SchemaCompiler, SpecModel } from '@mall-api/spec-model';
import { isJsonObject } from '@mall-api/spec-model';

/** An HTTP answer as the runner keeps it. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, or `undefined` when it was empty or not JSON. */
  readonly body: Json | undefined;
}

/** Checks answers of one spec. */
export interface AnswerChecks {
  /** The problems of `answer` as an answer of `operation`. */
  problems(operation: OperationEntry, answer: Answer): string[];
}

const integer = /^\d+$/;
const usedOfLimit = /^(\d+)\/(\d+)$/;
const decimal = /^\d+(\.\d+)?$/;
const formats: Record<HeaderField, RegExp> = {
  limit: integer,
  remaining: integer,
  'used/limit': usedOfLimit,
  cost: integer,
  'refill-per-second': decimal,
};

/** The checks of one spec model. */
export function createAnswerChecks(model: SpecModel, api: string): AnswerChecks {
  const limit = apiLimitFromSpec(model.document, api);
  const specLimit = policyLimit(limit.policy);
  const validators = new Map<string, ReturnType<SchemaCompiler['compile']> | undefined>();
  const responseOf = (operation: OperationEntry, status: number) =>
    model.resolveOptional(
      operation.responses[String(status)] ??
        operation.responses[`${String(status)[0]}XX`] ??
        operation.responses.default,
    );
  const validatorOf = (operation: OperationEntry, status: number) => {
    const key = `${operation.operationId} ${status}`;
    if (!validators.has(key)) {
      const schema = model.resolveOptional(
        model.resolveOptional(responseOf(operation, status)?.content)?.['application/json'],
      )?.schema;
      validators.set(key, schema === undefined ? undefined : model.schemas().compile(schema));
    }
    return validators.get(key);
  };
  const headerProblems = (declared: readonly string[], answer: Answer): string[] => {
    const problems: string[] = [];
    const values: Partial<Record<HeaderField, string>> = {};
    for (const [name, field] of Object.entries(limit.headers)) {
      if (!declared.includes(name.toLowerCase())) continue;
      const value = answer.headers.get(name);
      if (value === null) {
        problems.push(`header ${name} is missing`);
        continue;
      }
      if (!formats[field].test(value.trim()))
        problems.push(`header ${name}: ${value} is not a ${field} value`);
      else values[field] = value.trim();
    }
    const [, used, ofLimit] = usedOfLimit.exec(values['used/limit'] ?? '') ?? [];
    const stated = values.limit ?? ofLimit;
    if (stated !== undefined && Number(stated) !== specLimit)
      problems.push(
        `the rate-limit headers state a limit of ${stated}; the spec's x-rate-limit says ${specLimit}`,
      );
    if (
      used !== undefined &&
      values.remaining !== undefined &&
      Number(used) + Number(values.remaining) !== Number(ofLimit)
    )
      problems.push(`used ${used} + remaining ${values.remaining} is not the limit ${ofLimit}`);
    if (values.remaining !== undefined && Number(values.remaining) > specLimit)
      problems.push(`remaining ${values.remaining} exceeds the limit ${specLimit}`);
    if (
      answer.status === 429 &&
      declared.includes('retry-after') &&
      !integer.test(answer.headers.get('retry-after') ?? '')
    )
      problems.push('a 429 without a Retry-After in whole seconds');
    return problems;
  };
  return {
    problems(operation, answer) {
      const response = responseOf(operation, answer.status);
      if (!response) return [`status ${answer.status} is not documented for ${operation.operationId}`];
      const problems: string[] = [];
      const content = model.resolveOptional(response.content);
      if (content?.['application/json']) {
        const type = answer.headers.get('content-type') ?? '';
        if (!/^application\/json\b/i.test(type))
          problems.push(`content type ${type || '(none)'}, not application/json`);
        const validate = validatorOf(operation, answer.status);
        if (answer.body === undefined) problems.push('no JSON body');
        else if (validate && !validate(answer.body))
          problems.push(
            ...(validate.errors ?? [])
              .slice(0, 3)
              .map((e) => `body${e.instancePath} ${e.message ?? 'is invalid'}`),
          );
      }
      if (answer.status >= 400 && !isEnvelope(answer.body))
        problems.push('an error without the envelope {"error":{"code","message","more_info"}}');
      const declared = Object.keys(model.resolveOptional(response.headers) ?? {}).map((name) =>
        name.toLowerCase(),
      );
      return [...problems, ...headerProblems(declared, answer)];
    },
  };
}

/** Whether `body` is the API's error envelope. */
export function isEnvelope(body: Json | undefined): boolean {
  const error = isJsonObject(body) ? body.error : undefined;
  return (
    isJsonObject(error) &&
    typeof error.code === 'string' &&
    typeof error.message === 'string' &&
    isJsonObject(error.more_info)
  );
}

/** The field names the envelope's violations name (`more_info.violations[].name`). */
export function violatedFields(body: Json | undefined): string[] {
  const error = isJsonObject(body) ? body.error : undefined;
  const info = isJsonObject(error) ? error.more_info : undefined;
  const violations = isJsonObject(info) && Array.isArray(info.violations) ? info.violations : [];
  return violations.flatMap((v) => (isJsonObject(v) && typeof v.name === 'string' ? [v.name] : []));
}
