// The checks of the requests derived from the spec (request-cases.ts), one per case of every read
// operation: a valid request gets a conforming 2xx that shows what it asked for (list-behaviour.ts);
// an invalid one the documented validation status (422, else 400) with violations naming the
// field. Plus a paging check: the page at offset n is the second half of the page of 2n from 0.
// Writes are exercised only on records the run creates (sequence-checks.ts).

import { type Answer, type AnswerChecks, violatedFields } from '@mall-api/mock-server/answer-checks';
import type { Json, OperationEntry, SpecModel } from '@mall-api/spec-model';
import type { Check, CheckOutcome } from './check.js';
import type { ConformanceClient } from './conformance-client.js';
import { listItems, listProblems } from './list-behaviour.js';
import { baselineParts, type RequestCase, requestCases, withIn } from './request-cases.js';

/** What the request checks need. */
export interface CheckContext {
  readonly model: SpecModel;
  readonly client: ConformanceClient;
  readonly answers: AnswerChecks;
  readonly seed: number;
}

/** The status an operation documents for a request that breaks a rule. */
export const validationStatus = (operation: OperationEntry) =>
  operation.responseCodes.includes('422') ? 422 : 400;

export const is2xx = (status: number) => status >= 200 && status < 300;

/** The operations that read and need credentials, which the read-only checks send. */
export const readOperations = (model: SpecModel) =>
  model.operations.filter((operation) => operation.method === 'get' && operation.requiredScope !== 'none');

async function runCase(
  context: CheckContext,
  operation: OperationEntry,
  testCase: RequestCase,
): Promise<CheckOutcome> {
  const answer = await context.client.send({ operation, parts: testCase.parts });
  const problems = context.answers.problems(operation, answer);
  if (testCase.expect.kind === 'valid') {
    if (answer.status === 404 && operation.parameters.some((p) => p.in === 'path') && problems.length === 0)
      return { skipped: 'the example record does not exist on this server (404)' };
    if (!is2xx(answer.status)) return { problems: [`answered ${answer.status}, not 2xx`, ...problems] };
    return { problems: [...problems, ...listProblems(operation, testCase.parts.query, answer.body)] };
  }
  return { problems: refusalProblems(operation, answer, testCase.expect.fields, problems) };
}

/**
 * The problems of an answer to a request that breaks a rule: not the operation's validation status,
 * or no violation naming one of `fields`; added to `problems` (the answer's own).
 */
export function refusalProblems(
  operation: OperationEntry,
  answer: Answer,
  fields: readonly string[],
  problems: readonly string[],
): string[] {
  const expected = validationStatus(operation);
  if (answer.status !== expected) return [`answered ${answer.status}, not ${expected}`, ...problems];
  const named = violatedFields(answer.body);
  return namesField(named, fields)
    ? [...problems]
    : [...problems, `the violations name ${named.join(', ') || 'nothing'}, not ${fields.join(' or ')}`];
}

/**
 * Whether one of the violations `named` names one of `fields` or a member of it (`request.tags/3`);
 * header names compare without case, as HTTP's do.
 */
export function namesField(named: readonly string[], fields: readonly string[]): boolean {
  return named.some((name) =>
    fields.some((field) => {
      const [n, f] = [name.toLowerCase(), field.toLowerCase()];
      return n === f || n.startsWith(`${f}/`) || n.startsWith(`${f}.`);
    }),
  );
}

/** The request checks of every read operation. */
export function requestChecks(context: CheckContext): Check[] {
  return readOperations(context.model).flatMap((operation) => [
    ...requestCases(context.model, operation, context.seed).map((testCase) => ({
      group: 'requests',
      subject: operation.operationId,
      name: testCase.name,
      run: () => runCase(context, operation, testCase),
    })),
    ...pagingChecks(context, operation),
  ]);
}

const numberAt = (operation: OperationEntry, name: string, key: string) => {
  const value = operation.parameters.find((p) => p.name === name)?.schema[key];
  return typeof value === 'number' ? value : undefined;
};

function pagingChecks(context: CheckContext, operation: OperationEntry): Check[] {
  const names = operation.parameters.map((p) => p.name);
  if (!names.includes('limit') || !names.includes('offset')) return [];
  const size = Math.max(numberAt(operation, 'limit', 'minimum') ?? 1, 1);
  const maximum = numberAt(operation, 'limit', 'maximum') ?? Number.POSITIVE_INFINITY;
  if (2 * size > maximum) return [];
  return [
    {
      group: 'paging',
      subject: operation.operationId,
      name: `offset=${size}&limit=${size} is the second half of offset=0&limit=${2 * size}`,
      async run() {
        const base = baselineParts(context.model, operation);
        const page = (query: Record<string, Json>) =>
          context.client.send({ operation, parts: withIn(base, 'query', query) });
        const whole = await page({ offset: 0, limit: 2 * size });
        const second = await page({ offset: size, limit: size });
        if (!is2xx(whole.status) || !is2xx(second.status))
          return { problems: [`answered ${whole.status} and ${second.status}, not 2xx`] };
        const expected = (listItems(whole.body) ?? []).slice(size);
        const got = listItems(second.body) ?? [];
        if (expected.length === 0) return { skipped: `fewer than ${size + 1} items to page through` };
        return JSON.stringify(got) === JSON.stringify(expected)
          ? { problems: [] }
          : {
              problems: [
                `the page at offset ${size} holds ${got.length} items that are not items ${size}–${2 * size - 1} of the list`,
              ],
            };
      },
    },
  ];
}
