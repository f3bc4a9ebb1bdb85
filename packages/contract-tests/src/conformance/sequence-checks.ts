// Stateful sequences, found in the spec's paths the way its links would state them: a collection
// path with a `POST` answering 201 and an item path below it (`…/{id}`) with `GET`, `PUT` and
// `DELETE`. Each sequence creates a record from the create operation's request example, reads it
// back (the fields it sent), finds it in the list, updates it from the update example, reads the
// update back, checks that a credential without the scope cannot delete it, deletes it and reads
// 404. It only ever updates or deletes the record it created, and deletes it if a step fails.

import { type Answer, violatedFields } from '@mall-api/mock-server/answer-checks';
import {
  isJsonObject,
  type Json,
  type JsonObject,
  type OperationEntry,
  type SpecModel,
} from '@mall-api/spec-model';
import type { Check, CheckOutcome } from './check.js';
import { bodyExample, recordOf } from './request-bodies.js';
import { baselineParts } from './request-cases.js';
import type { CheckContext } from './request-checks.js';

interface Sequence {
  readonly create: OperationEntry;
  readonly list: OperationEntry | undefined;
  readonly read: OperationEntry;
  readonly update: OperationEntry | undefined;
  readonly remove: OperationEntry;
  /** The item path's own parameter (`category_no` of `/categories/{category_no}`). */
  readonly id: string;
}

/** The sequences the spec's paths describe. */
export function findSequences(model: SpecModel): Sequence[] {
  const at = (method: string, path: string) =>
    model.operations.find((o) => o.method === method && o.pathTemplate === path);
  return model.operations.flatMap((create) => {
    if (create.method !== 'post' || !create.responseCodes.includes('201')) return [];
    const item = model.operations.find(
      (o) =>
        o.method === 'get' &&
        new RegExp(`^${escapeRegExp(create.pathTemplate)}/\\{([^}/]+)\\}$`).test(o.pathTemplate),
    );
    const id = item ? /\{([^}]+)\}$/.exec(item.pathTemplate)?.[1] : undefined;
    const remove = item && at('delete', item.pathTemplate);
    if (!item || !id || !remove) return [];
    return [
      {
        create,
        list: at('get', create.pathTemplate),
        read: item,
        update: at('put', item.pathTemplate),
        remove,
        id,
      },
    ];
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
  return findSequences(context.model).map((sequence) => ({
    group: 'sequence',
    subject: sequence.create.operationId,
    name: `${sequence.create.operationId} → ${sequence.read.operationId} → ${sequence.list?.operationId ?? '(no list)'} → ${sequence.update?.operationId ?? '(no update)'} → ${sequence.read.operationId} → ${sequence.remove.operationId} → 404`,
    run: () => runSequence(context, sequence),
  }));
}

async function runSequence(context: CheckContext, sequence: Sequence): Promise<CheckOutcome> {
  const { client, model, answers } = context;
  const send = async (
    operation: OperationEntry,
    parts: ReturnType<typeof baselineParts>,
    body?: Json,
    credential?: 'forbidden',
  ) => {
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
  const createBody = bodyExample(model, sequence.create);
  if (createBody === undefined) return { skipped: `${sequence.create.operationId} has no request example` };
  const created = await send(sequence.create, baselineParts(model, sequence.create), createBody);
  if (
    created.answer.status >= 400 &&
    created.answer.status < 500 &&
    created.answer.status !== 401 &&
    created.answer.status !== 403
  )
    return {
      skipped: `${sequence.create.operationId}'s request example does not fit this mall (${created.answer.status}: ${violatedFields(created.answer.body).join(', ')})`,
    };
  if (created.answer.status !== 201)
    return {
      problems: [`${sequence.create.operationId} answered ${created.answer.status}`, ...created.problems],
    };
  const id = recordOf(created.answer.body)?.[sequence.id];
  if (id === undefined || id === null)
    return { problems: [`the 201 of ${sequence.create.operationId} names no ${sequence.id}`] };
  const itemParts = {
    ...baselineParts(model, sequence.read),
    path: { ...baselineParts(model, sequence.read).path, [sequence.id]: id },
  };
  const problems = [...created.problems];
  let deleted = false;
  try {
    const read = await send(sequence.read, itemParts);
    problems.push(...missingAttributes(recordOf(created.answer.body), read.answer));
    problems.push(
      ...read.problems,
      ...(read.answer.status === 200
        ? differences(recordOf(createBody), read.answer)
        : [`${sequence.read.operationId} of the new record answered ${read.answer.status}`]),
    );
    if (sequence.list) problems.push(...(await listShows(context, sequence, id)));
    const updateBody = sequence.update && bodyExample(model, sequence.update);
    if (sequence.update && updateBody !== undefined) {
      const updated = await send(sequence.update, itemParts, updateBody);
      problems.push(...updated.problems);
      if (updated.answer.status !== 200)
        problems.push(`${sequence.update.operationId} answered ${updated.answer.status}`);
      const reread = await send(sequence.read, itemParts);
      problems.push(...reread.problems, ...differences(recordOf(updateBody), reread.answer));
    }
    if (client.has('forbidden')) {
      const refused = await send(sequence.remove, itemParts, undefined, 'forbidden');
      if (refused.answer.status < 400)
        problems.push(`${sequence.remove.operationId} without the scope answered ${refused.answer.status}`);
    }
    const removed = await send(sequence.remove, itemParts);
    problems.push(...removed.problems);
    deleted = removed.answer.status === 200;
    if (!deleted) problems.push(`${sequence.remove.operationId} answered ${removed.answer.status}`);
    const gone = await send(sequence.read, itemParts);
    if (gone.answer.status !== 404)
      problems.push(`${sequence.read.operationId} after the delete answered ${gone.answer.status}, not 404`);
    problems.push(...gone.problems);
  } finally {
    // Only what this sequence created is ever deleted.
    if (!deleted) await client.send({ operation: sequence.remove, parts: itemParts }).catch(() => undefined);
  }
  return { problems };
}

async function listShows(context: CheckContext, sequence: Sequence, id: Json): Promise<string[]> {
  const list = sequence.list;
  if (!list) return [];
  const base = baselineParts(context.model, list);
  const byId = list.parameters.find((p) => p.in === 'query' && p.name === sequence.id);
  const limit = list.parameters.find((p) => p.name === 'limit')?.schema.maximum;
  const query = byId
    ? { [sequence.id]: byId.schema.type === 'array' ? [id] : id }
    : typeof limit === 'number'
      ? { limit }
      : {};
  const answer = await context.client.send({
    operation: list,
    parts: { ...base, query: { ...base.query, ...query } },
  });
  const items = isJsonObject(answer.body) ? Object.values(answer.body).find(Array.isArray) : undefined;
  const found =
    Array.isArray(items) && items.some((item) => isJsonObject(item) && same(item[sequence.id], id));
  return [
    ...context.answers.problems(list, answer).map((p) => `${list.operationId}: ${p}`),
    ...(found ? [] : [`${list.operationId} does not list the new record ${sequence.id}=${String(id)}`]),
  ];
}
