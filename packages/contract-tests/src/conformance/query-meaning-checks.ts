// The checks of the query parameters' declared meanings (`x-query`), against any server and
// read-only: per read operation, each filter at a value taken from the unfiltered answer (fetched
// once and shared); each `count` against what its list lists for the same filters; `fields=`;
// `embed=` with each member; a statistics period narrowed to one answered day. Nothing here names
// a parameter. What the answers must show is query-meaning-problems.ts's.

import type { Answer } from '@mall-api/mock-server/answer-checks';
import {
  type FilterMeaning,
  filtersAmong,
  type Json,
  type JsonObject,
  type OperationEntry,
  type OperationParameter,
  parameterRulesOf,
  type QueryMeaning,
  queryMeaningsOf,
} from '@mall-api/spec-model';
import type { Check, CheckOutcome } from './check.js';
import { filterValueFrom } from './filter-match.js';
import { itemsOf } from './parameter-values.js';
import {
  answeredRecords,
  countProblems,
  datedDays,
  embedProblems,
  filterProblems,
  periodProblems,
  projectionProblems,
  type Unfiltered,
} from './query-meaning-problems.js';
import { baselineParts, type RequestParts, withIn } from './request-cases.js';
import { type CheckContext, is2xx, readOperations } from './request-checks.js';

/** At most this many pages are read to total a list for a count check. */
const maxPages = 5;

const roleOf = (meanings: readonly QueryMeaning[], role: QueryMeaning['role']) =>
  meanings.find((meaning) => meaning.role === role);

/** The value as the parameter's schema types it (`"105900.00"` for a number is 105900, `T` for a boolean true). */
function typed(schema: JsonObject, value: Json): Json {
  if (Array.isArray(value)) return value.map((item) => typed(itemsOf(schema), item));
  if ((schema.type === 'integer' || schema.type === 'number') && typeof value === 'string')
    return value.trim() === '' ? value : Number(value);
  if (schema.type === 'boolean' && typeof value === 'string') return value === 'T' || value === 'true';
  if (schema.type === 'string' && typeof value !== 'string') return String(value);
  return value;
}

/** An operation's unfiltered answer, the request that got it, and the page size it asked for. */
type UnfilteredAnswer = { answer: Answer; parts: RequestParts; size?: number };

/** What the query-meaning checks of one run share: the unfiltered answers, fetched once each. */
function createReader(context: CheckContext) {
  const unfiltered = new Map<string, Promise<UnfilteredAnswer>>();
  const meanings = (operation: OperationEntry) => queryMeaningsOf(operation);
  const pageSizeOf = (operation: OperationEntry) => {
    const meaning = roleOf(meanings(operation), 'page-size');
    const parameter = operation.parameters.find((p) => p.name === meaning?.name);
    const maximum = parameter?.schema.maximum;
    return meaning && typeof maximum === 'number' ? { name: meaning.name, size: maximum } : undefined;
  };
  /** The operation listing what a single read (`…/{id}`) or a count (`…/count`) reads. */
  const listOf = (operation: OperationEntry) => {
    const parent = operation.pathTemplate.replace(/\/(\{[^}]+\}|count)$/, '');
    return parent === operation.pathTemplate
      ? undefined
      : context.model.operations.find((o) => o.method === 'get' && o.pathTemplate === parent);
  };
  const send = (operation: OperationEntry, parts: RequestParts) => context.client.send({ operation, parts });
  /** Sends `parts` with `query` added to its query. */
  const sendWith = (operation: OperationEntry, parts: RequestParts, query: Readonly<Record<string, Json>>) =>
    send(operation, withIn(parts, 'query', query));
  const read = (operation: OperationEntry): Promise<UnfilteredAnswer> => {
    const known = unfiltered.get(operation.operationId);
    if (known) return known;
    const fetched = (async () => {
      const base = baselineParts(context.model, operation);
      const list = listOf(operation);
      const idParameters = operation.parameters.filter((p) => p.in === 'path' && p.name !== 'shop_no');
      let path = base.path;
      if (list && idParameters.length > 0 && !operation.pathTemplate.endsWith('/count')) {
        // A single read addresses a record the server listed (the spec's example may name none).
        const [record] = answeredRecords((await read(list)).answer.body);
        const last = idParameters.at(-1) as OperationParameter;
        if (record?.[last.name] !== undefined) path = { ...path, [last.name]: record[last.name] as Json };
      }
      const page = pageSizeOf(operation);
      const parts = { ...base, path, query: { ...base.query, ...(page ? { [page.name]: page.size } : {}) } };
      return { answer: await send(operation, parts), parts, ...(page ? { size: page.size } : {}) };
    })();
    unfiltered.set(operation.operationId, fetched);
    return fetched;
  };
  return { meanings, read, sendWith, listOf, pageSizeOf };
}

type Reader = ReturnType<typeof createReader>;

/** The unfiltered answer's records and the request that got them. */
interface Read extends Unfiltered {
  readonly parts: RequestParts;
}

/** Reads the unfiltered records of `operation`, or says why a check cannot use them. */
async function recordsOf(reader: Reader, operation: OperationEntry): Promise<Read | { skipped: string }> {
  const { answer, parts, size } = await reader.read(operation);
  if (!is2xx(answer.status)) return { skipped: `the unfiltered request answered ${answer.status}` };
  const records = answeredRecords(answer.body);
  if (records.length === 0) return { skipped: 'the unfiltered request answered no records' };
  return { records, parts, complete: size !== undefined && records.length < size };
}

/** A function giving the value as sent, if the parameter's schema and rules accept it. */
function acceptor(context: CheckContext, operation: OperationEntry, name: string) {
  const parameter = operation.parameters.find((p) => p.name === name && p.in === 'query');
  if (!parameter) return () => undefined;
  const validate = context.model.schemas().compile(parameter.schema);
  const rules = parameterRulesOf(operation).requiresOneOf.filter((rule) => rule.name === name);
  return (value: Json): Json | undefined => {
    const sent = typed(parameter.schema, value);
    const items = (Array.isArray(sent) ? sent : [sent]).map(String);
    return validate(sent) && !rules.some((rule) => items.includes(rule.value)) ? sent : undefined;
  };
}

function filterCheck(
  context: CheckContext,
  reader: Reader,
  operation: OperationEntry,
  meaning: FilterMeaning,
): Check {
  return {
    group: 'filters',
    subject: operation.operationId,
    name: `${meaning.name} (${meaning.match} ${meaning.field || 'attribute'}) selects only what it matches`,
    async run(): Promise<CheckOutcome> {
      const unfiltered = await recordsOf(reader, operation);
      if ('skipped' in unfiltered) return unfiltered;
      const picked = filterValueFrom(meaning, unfiltered.records, acceptor(context, operation, meaning.name));
      if (!picked) return { skipped: `no answered record offers a value for ${meaning.name}` };
      const answer = await reader.sendWith(operation, unfiltered.parts, { [meaning.name]: picked.value });
      if (!is2xx(answer.status))
        return { problems: [`${meaning.name}=${JSON.stringify(picked.value)} answered ${answer.status}`] };
      const required = operation.parameters.some((p) => p.name === meaning.name && p.required);
      const compared = required ? undefined : unfiltered;
      return { problems: filterProblems(meaning, picked.value, compared, answeredRecords(answer.body)) };
    },
  };
}

/** The number of records `list` lists for `query` (paging with its page size), if at most `maxPages` pages. */
async function listedTotal(
  context: CheckContext,
  reader: Reader,
  list: OperationEntry,
  query: Readonly<Record<string, Json>>,
): Promise<number | string> {
  const page = reader.pageSizeOf(list);
  const offset = roleOf(reader.meanings(list), 'page-offset');
  const base = baselineParts(context.model, list);
  let total = 0;
  for (let index = 0; index < maxPages; index++) {
    const paging = page
      ? { [page.name]: page.size, ...(offset ? { [offset.name]: index * page.size } : {}) }
      : {};
    const answer = await reader.sendWith(list, base, { ...query, ...paging });
    if (!is2xx(answer.status)) return `${list.operationId} answered ${answer.status}`;
    const records = answeredRecords(answer.body).length;
    total += records;
    if (!page || records < page.size) return total;
    if (!offset) break;
  }
  return `more than ${maxPages} pages to list`;
}

function countChecks(context: CheckContext, reader: Reader, operation: OperationEntry): Check[] {
  const list = operation.pathTemplate.endsWith('/count') ? reader.listOf(operation) : undefined;
  if (!list) return [];
  const listed = new Set(filtersAmong(reader.meanings(list)).map((meaning) => meaning.name));
  const filters = filtersAmong(reader.meanings(operation)).filter((meaning) => listed.has(meaning.name));
  const check = (
    name: string,
    query: () => Promise<{ query: Record<string, Json> } | { skipped: string }>,
  ): Check => ({
    group: 'count',
    subject: operation.operationId,
    name,
    async run() {
      const asked = await query();
      if ('skipped' in asked) return asked;
      const total = await listedTotal(context, reader, list, asked.query);
      if (typeof total === 'string') return { skipped: total };
      const answer = await reader.sendWith(operation, baselineParts(context.model, operation), asked.query);
      if (!is2xx(answer.status)) return { problems: [`answered ${answer.status}`] };
      return { problems: countProblems(name, answer.body, total) };
    },
  });
  return [
    check(`count equals the number ${list.operationId} lists`, async () => ({ query: {} })),
    ...filters.map((meaning) =>
      check(`count with ${meaning.name} equals the number ${list.operationId} lists with it`, async () => {
        const unfiltered = await recordsOf(reader, list);
        if ('skipped' in unfiltered) return unfiltered;
        const picked = filterValueFrom(
          meaning,
          unfiltered.records,
          acceptor(context, operation, meaning.name),
        );
        return picked
          ? { query: { [meaning.name]: picked.value } }
          : { skipped: `no listed record offers a value for ${meaning.name}` };
      }),
    ),
  ];
}

function projectionCheck(
  context: CheckContext,
  reader: Reader,
  operation: OperationEntry,
  meaning: QueryMeaning,
): Check {
  return {
    group: 'fields',
    subject: operation.operationId,
    name: `${meaning.name}= keeps only the named attributes`,
    async run() {
      const keeps = meaning.role === 'projection' ? meaning.keeps : '';
      const unfiltered = await recordsOf(reader, operation);
      if ('skipped' in unfiltered) return unfiltered;
      const [first] = unfiltered.records;
      const keys = Object.keys(first ?? {}).filter((key) => key !== keeps);
      const named = keys.slice(0, 1);
      const value = acceptor(context, operation, meaning.name)(named);
      if (named.length === 0 || value === undefined) return { skipped: 'no attribute to name' };
      const answer = await reader.sendWith(operation, unfiltered.parts, { [meaning.name]: value });
      if (!is2xx(answer.status))
        return { problems: [`${meaning.name}=${named.join(',')} answered ${answer.status}`] };
      const records = answeredRecords(answer.body);
      if (records.length === 0)
        return { problems: [`${meaning.name}=${named.join(',')} answered no records`] };
      return { problems: projectionProblems(records, named, keeps) };
    },
  };
}

function embedChecks(
  context: CheckContext,
  reader: Reader,
  operation: OperationEntry,
  meaning: QueryMeaning,
): Check[] {
  const parameter = operation.parameters.find((p) => p.name === meaning.name && p.in === 'query');
  const members = parameter ? itemsOf(parameter.schema).enum : undefined;
  const accepts = acceptor(context, operation, meaning.name);
  return (Array.isArray(members) ? members : [])
    .filter((member): member is string => typeof member === 'string' && accepts([member]) !== undefined)
    .map((member) => ({
      group: 'embed',
      subject: operation.operationId,
      name: `${meaning.name}=${member} adds ${member}`,
      async run(): Promise<CheckOutcome> {
        const unfiltered = await recordsOf(reader, operation);
        if ('skipped' in unfiltered) return unfiltered;
        const answer = await reader.sendWith(operation, unfiltered.parts, { [meaning.name]: [member] });
        if (!is2xx(answer.status))
          return { problems: [`${meaning.name}=${member} answered ${answer.status}`] };
        return { problems: embedProblems(answeredRecords(answer.body), member) };
      },
    }));
}

function periodCheck(reader: Reader, operation: OperationEntry, meanings: readonly QueryMeaning[]): Check[] {
  const start = roleOf(meanings, 'period-start');
  const end = roleOf(meanings, 'period-end');
  if (start?.role !== 'period-start' || end?.role !== 'period-end') return [];
  const datedBy = [...new Set([...start.datedBy, ...end.datedBy])];
  return [
    {
      group: 'period',
      subject: operation.operationId,
      name: `${start.name}–${end.name} narrowed to one day answers only that day`,
      async run() {
        const unfiltered = await recordsOf(reader, operation);
        if ('skipped' in unfiltered) return unfiltered;
        const asked = unfiltered.parts.query;
        const problems = periodProblems(
          unfiltered.records,
          datedBy,
          String(asked[start.name]),
          String(asked[end.name]),
        );
        const days = datedDays(unfiltered.records, datedBy);
        const day = days.at(-1);
        const few = days.length ? 'one day answered' : `no answered row carries ${datedBy.join(' or ')}`;
        if (!day || days.length < 2) return problems.length ? { problems } : { skipped: few };
        const answer = await reader.sendWith(operation, unfiltered.parts, {
          [start.name]: day,
          [end.name]: day,
        });
        if (!is2xx(answer.status))
          return { problems: [...problems, `the period ${day}–${day} answered ${answer.status}`] };
        const rows = answeredRecords(answer.body);
        if (rows.length > unfiltered.records.length)
          problems.push(
            `the period ${day}–${day} answered ${rows.length} rows, more than the ${unfiltered.records.length} of the whole period`,
          );
        return { problems: [...problems, ...periodProblems(rows, datedBy, day, day)] };
      },
    },
  ];
}

/** The query-meaning checks of every read operation. */
export function queryMeaningChecks(context: CheckContext): Check[] {
  const reader = createReader(context);
  return readOperations(context.model).flatMap((operation) => {
    const meanings = reader.meanings(operation);
    const counting = operation.pathTemplate.endsWith('/count') && reader.listOf(operation) !== undefined;
    return [
      ...(counting
        ? countChecks(context, reader, operation)
        : filtersAmong(meanings).map((meaning) => filterCheck(context, reader, operation, meaning))),
      ...meanings.flatMap((meaning) =>
        meaning.role === 'projection'
          ? [projectionCheck(context, reader, operation, meaning)]
          : meaning.role === 'embed'
            ? embedChecks(context, reader, operation, meaning)
            : [],
      ),
      ...periodCheck(reader, operation, meanings),
    ];
  });
}
