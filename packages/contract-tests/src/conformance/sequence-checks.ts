// Stateful sequences, read from the spec's `links`: a create operation whose 201 links to the
// `GET`, `PUT` and `DELETE` of what it created (and to a list filtered by it). Each sequence
// creates a record from the request example, reads it back, finds it in the list, updates and
// rereads it, checks that a credential without the scope cannot delete it, deletes it and reads
// 404, every later request taking its parameters from the links. It only updates or deletes the
// record it created, and deletes it if a step fails.

import { type Answer, violatedFields } from '@mall-api/mock-server/answer-checks';
import {
  isJsonObject,
  type Json,
  type JsonObject,
  linkValue,
  type OperationEntry,
  type OperationLink,
  type SpecModel,
} from '@mall-api/spec-model';
import type { Check, CheckOutcome } from './check.js';
import { bodyExample, recordOf } from './request-bodies.js';
import { baselineParts, type RequestParts } from './request-cases.js';
import type { CheckContext } from './request-checks.js';

/** A linked operation of a sequence and the link that leads to it. */
export interface Step {
  readonly operation: OperationEntry;
  readonly link: OperationLink;
}

/** One create operation and the operations its links lead to. */
export interface Sequence {
  readonly create: OperationEntry;
  readonly read: Step;
  readonly list: Step | undefined;
  readonly update: Step | undefined;
  readonly remove: Step;
}

/** The sequences the links of the spec's create operations (a `POST` answering 201) describe. */
export function findSequences(model: SpecModel): Sequence[] {
  return model.operations.flatMap((create) => {
    if (create.method !== 'post') return [];
    const steps = create.links
      .filter((link) => link.status === '201')
      .flatMap((link) => {
        const operation = model.operation(link.operationId);
        return operation ? [{ operation, link }] : [];
      });
    const linksPath = (step: Step) =>
      Object.keys(step.link.parameters).some((name) =>
        step.operation.parameters.some((p) => p.in === 'path' && p.name === name),
      );
    const find = (method: string, byPath: boolean) =>
      steps.find((step) => step.operation.method === method && linksPath(step) === byPath);
    const read = find('get', true);
    const remove = find('delete', true);
    if (!read || !remove) return [];
    return [{ create, read, remove, list: find('get', false), update: find('put', true) }];
  });
}

/** The request of a linked step: its baseline with the link's parameters taken from the create answer. */
function linkedParts(model: SpecModel, step: Step, created: Json | undefined): RequestParts {
  const base = baselineParts(model, step.operation);
  const path: Record<string, Json> = { ...base.path };
  const query: Record<string, Json> = { ...base.query };
  for (const [name, expression] of Object.entries(step.link.parameters)) {
    const value = linkValue(expression, created);
    const parameter = step.operation.parameters.find((p) => p.name === name);
    if (value === undefined || !parameter) continue;
    if (parameter.in === 'path') path[name] = value;
    else query[name] = parameter.schema.type === 'array' && !Array.isArray(value) ? [value] : value;
  }
  return { ...base, path, query };
}

/** The value the links name the created record by (the read link's first parameter). */
function linkedId(step: Step, created: Json | undefined): { name: string; value: Json | undefined } {
  const [name = '', expression = null] = Object.entries(step.link.parameters)[0] ?? [];
  return { name, value: linkValue(expression, created) };
}

const same = (a: Json | undefined, b: Json | undefined) =>
  String(a) === String(b) || (Number.isFinite(Number(a)) && Number(a) === Number(b) && a !== '' && b !== '');

/** Fields of `sent` (scalars) the record in `answer` shows with another value. */
function differences(sent: JsonObject | undefined, answer: Answer): string[] {
  const stored = recordOf(answer.body);
  if (!sent || !stored) return [];
  return Object.entries(sent)
    .filter(
      ([key, value]) =>
        (value === null || typeof value !== 'object') && key in stored && !same(value, stored[key]),
    )
    .map(
      ([key, value]) =>
        `${key} was sent as ${JSON.stringify(value)} but reads ${JSON.stringify(stored[key])}`,
    );
}

/** Attributes the create answer's record had that the read of the same record lacks. */
function missingAttributes(created: JsonObject | undefined, answer: Answer): string[] {
  const stored = recordOf(answer.body);
  if (!created || !stored) return [];
  return Object.keys(created)
    .filter((key) => !(key in stored))
    .map((key) => `the record read back has no ${key}, which the create answer had`);
}

/** The sequence checks of an API. */
export function sequenceChecks(context: CheckContext): Check[] {
  return findSequences(context.model).map((sequence) => {
    const { create, read, list, update, remove } = sequence;
    const id = (step: Step | undefined) => step?.operation.operationId;
    return {
      group: 'sequence',
      subject: create.operationId,
      name: `${create.operationId} → ${id(read)} → ${id(list) ?? '(no list)'} → ${id(update) ?? '(no update)'} → ${id(read)} → ${id(remove)} → 404`,
      run: () => runSequence(context, sequence),
    };
  });
}

async function runSequence(context: CheckContext, sequence: Sequence): Promise<CheckOutcome> {
  const { client, model, answers } = context;
  const send = async (
    step: OperationEntry | Step,
    parts: RequestParts,
    body?: Json,
    credential?: 'forbidden',
  ) => {
    const operation = 'link' in step ? step.operation : step;
    const answer = await client.send({
      operation,
      parts,
      ...(body === undefined ? {} : { body }),
      ...(credential ? { credential } : {}),
    });
    return {
      answer,
      problems: answers.problems(operation, answer).map((p) => `${operation.operationId}: ${p}`),
    };
  };
  const { create, read, remove, update, list } = sequence;
  const createBody = bodyExample(model, create);
  if (createBody === undefined) return { skipped: `${create.operationId} has no request example` };
  const created = await send(create, baselineParts(model, create), createBody);
  const status = created.answer.status;
  if (status >= 400 && status < 500 && status !== 401 && status !== 403)
    return {
      skipped: `${create.operationId}'s request example does not fit this mall (${status}: ${violatedFields(created.answer.body).join(', ')})`,
    };
  if (status !== 201) return { problems: [`${create.operationId} answered ${status}`, ...created.problems] };
  const id = linkedId(read, created.answer.body);
  if (id.value === undefined || id.value === null)
    return {
      problems: [`the 201 of ${create.operationId} has no value at ${String(read.link.parameters[id.name])}`],
    };
  const partsOf = (step: Step) => linkedParts(model, step, created.answer.body);
  const problems = [...created.problems];
  let deleted = false;
  try {
    const first = await send(read, partsOf(read));
    problems.push(...missingAttributes(recordOf(created.answer.body), first.answer));
    problems.push(
      ...first.problems,
      ...(first.answer.status === 200
        ? differences(recordOf(createBody), first.answer)
        : [`${read.operation.operationId} of the new record answered ${first.answer.status}`]),
    );
    if (list) problems.push(...(await listShows(context, list, partsOf(list), id)));
    const updateBody = update && bodyExample(model, update.operation);
    if (update && updateBody !== undefined) {
      const updated = await send(update, partsOf(update), updateBody);
      problems.push(...updated.problems);
      if (updated.answer.status !== 200)
        problems.push(`${update.operation.operationId} answered ${updated.answer.status}`);
      const reread = await send(read, partsOf(read));
      problems.push(...reread.problems, ...differences(recordOf(updateBody), reread.answer));
    }
    if (client.has('forbidden')) {
      const refused = await send(remove, partsOf(remove), undefined, 'forbidden');
      if (refused.answer.status < 400)
        problems.push(`${remove.operation.operationId} without the scope answered ${refused.answer.status}`);
    }
    const removed = await send(remove, partsOf(remove));
    problems.push(...removed.problems);
    deleted = removed.answer.status === 200;
    if (!deleted) problems.push(`${remove.operation.operationId} answered ${removed.answer.status}`);
    const gone = await send(read, partsOf(read));
    if (gone.answer.status !== 404)
      problems.push(`${read.operation.operationId} after the delete answered ${gone.answer.status}, not 404`);
    problems.push(...gone.problems);
  } finally {
    // Only what this sequence created is ever deleted.
    if (!deleted)
      await client.send({ operation: remove.operation, parts: partsOf(remove) }).catch(() => undefined);
  }
  return { problems };
}

/** Whether the linked list (filtered by the new record, as its link says) shows it. */
async function listShows(
  context: CheckContext,
  list: Step,
  parts: RequestParts,
  id: { name: string; value: Json | undefined },
): Promise<string[]> {
  const answer = await context.client.send({ operation: list.operation, parts });
  const items = isJsonObject(answer.body) ? Object.values(answer.body).find(Array.isArray) : undefined;
  const found =
    Array.isArray(items) && items.some((item) => isJsonObject(item) && same(item[id.name], id.value));
  return [
    ...context.answers.problems(list.operation, answer).map((p) => `${list.operation.operationId}: ${p}`),
    ...(found
      ? []
      : [`${list.operation.operationId} does not list the new record ${id.name}=${String(id.value)}`]),
  ];
}
