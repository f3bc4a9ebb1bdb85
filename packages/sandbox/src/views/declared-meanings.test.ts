// The sandbox honours every query parameter of the three platform APIs as its `x-query` declares
// it. Generated from the specs, not from a list: for each read operation and each of its query
// parameters, the test picks from a seeded two-shop mall (and a second mall) a value that makes the
// parameter observable, calls with and without it, and checks that the answer changed as declared —
// a filter lists exactly the records its comparison accepts (a proper, non-empty subset), its count
// equals that list's length, paging, sorting, projection, embedding, shop, mall and period behave
// as their roles say, and a page after a record starts after it. An operation whose records the
// spec declares the sandbox does not simulate (`x-sandbox: {simulated: false}`) answers no record
// there, with or without the parameter. The records a new mall does not have (`{seeded: false}`:
// the delivery log, filled only by deliveries) are made first: each mall delivers events of its
// writes and a test send as a dispatcher would, one failing and retried, one resent, on different
// days. A parameter added to a spec is covered without editing this file.
import {
  type FilterMeaning,
  indexOperations,
  loadSpecs,
  type OperationEntry,
  parameterRulesOf,
  type QueryMeaning,
  queryMeaningsOf,
  recordValues,
} from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxMalls, type SandboxMalls } from '../malls/sandbox-malls.js';

// biome-ignore lint/suspicious/noExplicitAny: records are read loosely; their schemas are the spec's
type Body = Record<string, any>;
type Query = Record<string, unknown>;
type Api = 'collection' | 'admin' | 'analytics';

const mall = 'honest-a';
const otherMall = 'honest-b';
/** A statistics period after the seeded products were created, before the malls' clock. */
const period = { start_date: '2026-02-02', end_date: '2026-02-15' };
const clock = Date.parse('2026-03-01T00:00:00+09:00');

let malls: SandboxMalls;
const specs = await loadSpecs();
const apis: Api[] = ['collection', 'admin', 'analytics'];
/** Each API's read operations with declared query parameters (indexed once). */
const readOperations = new Map(
  apis.map((api) => [
    api,
    indexOperations(specs[api].document).filter(
      (op) => op.method === 'get' && queryMeaningsOf(op).length > 0,
    ),
  ]),
);
const operationsOf = (api: Api) => readOperations.get(api) ?? [];

beforeAll(async () => {
  malls = await createSandboxMalls({ mall: { shops: 2 }, clockFor: () => () => clock });
  for (const id of [mall, otherMall]) {
    await call('admin', 'countProducts', {}, {}, id);
    await deliverEvents(id);
  }
});
afterAll(() => malls.close());

/** The sandbox's answer to one call. */
async function call(api: Api, operationId: string, query: Query, path: Query = {}, mallId = mall) {
  return await malls.handle({
    api,
    operationId,
    path,
    query,
    body: undefined,
    mallId: api === 'collection' ? undefined : mallId,
  });
}
/**
 * Delivers the events of some writes of `mallId` and a test send as a dispatcher would, so its
 * delivery log holds every kind of entry: normal sends of two events (the first failing), its
 * retry, a test send and a resend, each batch on its own day before the malls' clock.
 */
async function deliverEvents(mallId: string) {
  const day = 86_400_000;
  const settleAll = async (at: number, fails: (index: number) => boolean) => {
    const claimed = await malls.events.claim(mallId, 'declared-meanings', at, day, 100);
    const settled = claimed.map((event, index) => {
      const success = !fails(index);
      const attempt = {
        requestedAt: at,
        endpoint: 'http://127.0.0.1:9/hook',
        success,
        status: success ? 200 : 500,
        responseBody: success ? 'ok' : 'down',
      };
      return { claimed: event, attempt, retryAt: success ? undefined : at + day };
    });
    await malls.events.settle(mallId, settled);
  };
  const request = { product_name: `Delivered ${mallId}`, supply_price: '10.00' };
  const created = await malls.handle({
    api: 'admin',
    operationId: 'createProduct',
    path: {},
    query: {},
    body: { request },
    mallId,
  });
  const { product_no } = (created as { body: Body }).body.product;
  await malls.handle({
    api: 'admin',
    operationId: 'deleteProduct',
    path: { product_no },
    query: {},
    body: undefined,
    mallId,
  });
  await malls.events.sendTest(mallId, malls.events.eventNumbers().at(-1) ?? 0);
  await settleAll(clock - 5 * day, (index) => index === 0);
  await settleAll(clock - 3 * day, () => false);
  const [first] = await malls.events.deliveries(mallId);
  await malls.events.resend(mallId, String(first?.log_id));
  await settleAll(clock - day, () => false);
}

/** The body of an answered call (failing the test for a refusal). */
async function body(api: Api, operationId: string, query: Query, path: Query = {}): Promise<Body> {
  const reply = await call(api, operationId, query, path);
  expect(reply, `${operationId} ${JSON.stringify(query)}`).toMatchObject({ ok: true });
  return (reply as { body: Body }).body;
}
/** The records of a body: its one list, or its one record. */
const recordsOf = (answer: Body): Body[] => {
  const first = Object.values(answer)[0];
  return Array.isArray(first) ? first : [first];
};
const meaningOf = (op: OperationEntry, role: QueryMeaning['role']) =>
  queryMeaningsOf(op).find((m) => m.role === role);
const parameterOf = (op: OperationEntry, name: string) =>
  op.parameters.find((p) => p.in === 'query' && p.name === name);
/** Whether the spec declares that the sandbox does not simulate the operation's records. */
const notSimulated = (op: OperationEntry) =>
  (op.extensions['x-sandbox'] as { simulated?: boolean } | undefined)?.simulated === false;

/** Every record a query selects: all pages when the operation pages, else its one answer. */
async function allRecords(api: Api, op: OperationEntry, query: Query, path: Query): Promise<Body[]> {
  const size = meaningOf(op, 'page-size');
  const offset = meaningOf(op, 'page-offset');
  const limit = size ? Number(parameterOf(op, size.name)?.schema.maximum ?? 100) : undefined;
  const page = async (from: number) =>
    recordsOf(
      await body(
        api,
        op.operationId,
        {
          ...query,
          ...(size ? { [size.name]: limit } : {}),
          ...(offset && from ? { [offset.name]: from } : {}),
        },
        path,
      ),
    );
  if (!offset || limit === undefined) return page(0);
  const all: Body[] = [];
  for (let from = 0; ; from += limit) {
    const found = await page(from);
    all.push(...found);
    if (found.length < limit) return all;
  }
}

/** The list operation a count operation counts for (`countProducts` → `listProducts`). */
const listFor = (api: Api, op: OperationEntry) =>
  op.operationId.startsWith('count')
    ? operationsOf(api).find((o) => o.operationId === op.operationId.replace(/^count/, 'list'))
    : undefined;

/** Values of the records for a field, items of a list one by one. */
const valuesAt = (records: readonly Body[], field: string) =>
  records.flatMap((r) => recordValues(r, field)).flatMap((v) => (Array.isArray(v) ? v : [v]));

/** The parameter's value in its schema's type (the front layer converts before the sandbox). */
function typed(op: OperationEntry, name: string, value: unknown): unknown {
  const schema = parameterOf(op, name)?.schema ?? {};
  const type = schema.type === 'array' ? (schema.items as Body | undefined)?.type : schema.type;
  const one =
    type === 'integer' || type === 'number'
      ? Number(value)
      : type === 'boolean'
        ? value === true || value === 'T'
        : String(value);
  return schema.type === 'array' ? [one] : one;
}

/** The test's own reading of a declared comparison: does `record` match `value`? */
function accepts(meaning: FilterMeaning, record: Body, value: unknown): boolean {
  const reached = meaning.field ? recordValues(record, meaning.field) : [];
  const scalar = reached.filter((v) => !Array.isArray(v));
  const lists = reached.filter(Array.isArray) as unknown[][];
  const word = String(value);
  const yes = value === true || value === 'T';
  switch (meaning.match) {
    case 'equals':
      return scalar.some((v) => String(v) === word);
    case 'equals-ci':
      return scalar.some((v) => String(v).toLowerCase() === word.toLowerCase());
    case 'equals-number':
      return scalar.some((v) => Number(v) === Number(value));
    case 'contains-ci':
      return scalar.some((v) => String(v).toLowerCase().includes(word.toLowerCase()));
    case 'min':
      return scalar.some((v) => v !== null && Number(v) >= Number(value));
    case 'max':
      return scalar.some((v) => v !== null && Number(v) <= Number(value));
    case 'greater-than':
      return scalar.some((v) => Number(v) > Number(value));
    case 'date-from':
      return scalar.some((v) => String(v).slice(0, 10) >= word);
    case 'date-to':
      return scalar.some((v) => String(v).slice(0, 10) <= word);
    case 'flag':
      return scalar.some((v) => v === true || v === 'T') === yes;
    case 'has-any':
      return lists.some((l) => l.map(String).includes(word));
    case 'has-any-ci':
      return lists.some((l) => l.map((v) => String(v).toLowerCase()).includes(word.toLowerCase()));
    case 'empty':
    case 'non-empty':
      return lists.some((l) => l.length > 0) === (yes === (meaning.match === 'non-empty'));
    case 'attribute-value': {
      const [attribute = '', held = ''] = word.split(':');
      const actual = record[attribute];
      return Array.isArray(actual) ? actual.map(String).includes(held) : String(actual) === held;
    }
    case 'key-value': {
      const [key, held] = word.split(':');
      const entry = meaning.entry as { key: string; value: string };
      return reached.some(
        (e) => String((e as Body)[entry.key]) === key && String((e as Body)[entry.value]) === held,
      );
    }
  }
}

/** Values worth trying for a filter, from the records (ordered so a middle one comes first). */
function candidates(meaning: FilterMeaning, records: readonly Body[]): unknown[] {
  const middleFirst = (values: unknown[]) => {
    const sorted = [...new Set(values.map(String))].sort(
      (a, b) => Number(a) - Number(b) || a.localeCompare(b),
    );
    const middle = Math.floor(sorted.length / 2);
    return [...sorted.slice(middle), ...sorted.slice(0, middle).reverse()];
  };
  const found = meaning.field ? valuesAt(records, meaning.field) : [];
  switch (meaning.match) {
    case 'flag':
    case 'empty':
    case 'non-empty':
      return ['T', 'F'];
    case 'contains-ci':
      return middleFirst(found.flatMap((v) => String(v).split(' ')).filter((w) => w.length >= 3)).map((w) =>
        String(w).toUpperCase(),
      );
    case 'equals-ci':
    case 'has-any-ci':
      return middleFirst(found).map((v) => String(v).toUpperCase());
    case 'date-from':
    case 'date-to':
      return middleFirst(found.map((v) => String(v).slice(0, 10)));
    case 'attribute-value':
      return (meaning.attributes ?? []).flatMap((a) =>
        middleFirst(valuesAt(records, a)).map((v) => `${a}:${v}`),
      );
    case 'key-value': {
      const entry = meaning.entry as { key: string; value: string };
      return middleFirst(found.map((e) => `${(e as Body)[entry.key]}:${(e as Body)[entry.value]}`));
    }
    default:
      return middleFirst(found.filter((v) => v !== null && v !== undefined && v !== ''));
  }
}

/** Records seen so far, by attribute: where required parameters and path parameters take values. */
const seen = new Map<string, Set<unknown>>();
function remember(records: readonly Body[]) {
  for (const record of records)
    for (const [key, value] of Object.entries(record ?? {}))
      for (const item of Array.isArray(value)
        ? value
        : typeof value === 'object' && value !== null
          ? Object.values(value)
          : [value])
        if (typeof item !== 'object') {
          if (!seen.has(key)) seen.set(key, new Set());
          seen.get(key)?.add(item);
        }
}

/** The query and path an operation needs before any optional parameter (undefined: not yet known). */
async function baseOf(api: Api, op: OperationEntry): Promise<{ query: Query; path: Query } | undefined> {
  const query: Query = {};
  for (const meaning of queryMeaningsOf(op)) {
    if (!parameterOf(op, meaning.name)?.required) continue;
    if (meaning.role === 'mall') query[meaning.name] = mall;
    else if (meaning.role === 'period-start') query[meaning.name] = period.start_date;
    else if (meaning.role === 'period-end') query[meaning.name] = period.end_date;
    else if (meaning.role === 'filter') {
      // Every value seen of the attribute: the required filter selects all the records it can.
      const known = [...(seen.get(meaning.field.split(/[.[]/)[0] ?? '') ?? [])];
      if (known.length === 0) return undefined;
      query[meaning.name] = known;
    } else if (meaning.role === 'subset')
      query[meaning.name] = (parameterOf(op, meaning.name)?.schema.enum as unknown[] | undefined)?.[0];
  }
  const pathParameters = op.parameters.filter((p) => p.in === 'path');
  if (pathParameters.length === 0) return { query, path: {} };
  // Each path parameter takes a seen value of the attribute of its name that gives the most records.
  const [parameter] = pathParameters;
  const options = [...(seen.get(parameter?.name ?? '') ?? [])];
  let best: { query: Query; path: Query; size: number } | undefined;
  for (const value of options) {
    const reply = await call(api, op.operationId, query, { [parameter?.name ?? '']: value });
    if (!reply.ok) continue;
    const answer = (reply as { body: Body }).body;
    const size = typeof answer.count === 'number' ? answer.count : recordsOf(answer).length;
    if (!best || size > best.size) best = { query, path: { [parameter?.name ?? '']: value }, size };
  }
  return best && { query: best.query, path: best.path };
}

/** The bases of every operation of an API, resolved in passes (a required value comes from another's records). */
async function basesOf(api: Api): Promise<Map<string, { query: Query; path: Query }>> {
  const bases = new Map<string, { query: Query; path: Query }>();
  for (let pass = 0; pass < 4; pass++)
    for (const op of operationsOf(api)) {
      if (bases.has(op.operationId) || meaningOf(op, 'authorization')) continue;
      const base = await baseOf(api, op);
      if (!base) continue;
      bases.set(op.operationId, base);
      if (!op.operationId.startsWith('count')) remember(await allRecords(api, op, base.query, base.path));
    }
  return bases;
}

describe.each(apis)('the %s API honours every declared query parameter', (api) => {
  const bases = new Map<string, { query: Query; path: Query }>();
  /** Each operation's records with its base query alone, listed once (the cases only read the malls). */
  const fulls = new Map<string, Promise<Body[]>>();
  beforeAll(async () => {
    for (const [id, base] of await basesOf(api)) bases.set(id, base);
  });
  const cases = operationsOf(api).flatMap((op) =>
    queryMeaningsOf(op).map((meaning) => [op.operationId, meaning.name, op, meaning] as const),
  );

  it.each(cases)('%s %s', async (_id, _name, op, meaning) => {
    if (meaning.role === 'authorization') {
      // The OAuth authorization request is answered by the mock's OAuth stage, not the sandbox.
      expect(op.requiredScope).toBe('none');
      return;
    }
    if (notSimulated(op)) {
      const example = parameterOf(op, meaning.name)?.definition.example;
      expect(example, `${meaning.name} has an example`).toBeDefined();
      expect(await allRecords(api, op, {}, {})).toEqual([]);
      expect(await allRecords(api, op, { [meaning.name]: example }, {})).toEqual([]);
      return;
    }
    const base = bases.get(op.operationId);
    expect(base, `${op.operationId} has a base query from the seeded malls`).toBeDefined();
    const { query, path } = base as { query: Query; path: Query };
    const listOp = listFor(api, op) ?? op;
    const embed = meaningOf(listOp, 'embed');
    const rules = parameterRulesOf(listOp);
    /** Records of the list operation for `extra`, with the embed a filter field needs. */
    const list = async (extra: Query, needs?: string) => {
      const embedding: Query = {};
      if (needs && embed) {
        embedding[embed.name] = [needs];
        const requirement = rules.requiresOneOf.find((r) => r.name === embed.name && r.value === needs);
        const carrier = requirement && queryMeaningsOf(listOp).find((m) => m.name === requirement.oneOf[0]);
        if (carrier?.role === 'filter')
          embedding[carrier.name] = [
            ...new Set(valuesAt(await allRecords(api, listOp, query, path), carrier.field)),
          ];
      }
      return allRecords(api, listOp, { ...query, ...embedding, ...extra }, path);
    };
    const counted = async (extra: Query) =>
      Number((await body(api, op.operationId, { ...query, ...extra }, path)).count);
    const isCount = op.operationId.startsWith('count');
    if (!fulls.has(op.operationId)) fulls.set(op.operationId, list({}));
    const full = await (fulls.get(op.operationId) as Promise<Body[]>);
    expect(full.length, 'the seeded mall answers records').toBeGreaterThan(0);

    if (meaning.role === 'filter') {
      const first = meaning.field.split(/[.[]/)[0] ?? '';
      const needs = meaning.field && full.every((r) => !(first in r)) ? first : undefined;
      const records = needs ? await list({}, needs) : full;
      const required = parameterOf(op, meaning.name)?.required;
      const chosen = candidates(meaning, records).find((value) => {
        const expected = records.filter((r) => accepts(meaning, r, value)).length;
        return expected > 0 && expected < records.length;
      });
      expect(chosen, `a seeded value of ${meaning.name} selects a proper, non-empty subset`).toBeDefined();
      const asked = { [meaning.name]: typed(op, meaning.name, chosen) };
      const expected = records.filter((r) => accepts(meaning, r, chosen));
      const answered = needs ? await list(asked, needs) : await list(asked);
      expect(answered.map((r) => JSON.stringify(r)).sort()).toEqual(
        expected.map((r) => JSON.stringify(r)).sort(),
      );
      if (required) expect(expected.length).toBeLessThan(full.length);
      if (isCount) expect(await counted(asked)).toBe(expected.length);
      const count = operationsOf(api).find((o) => o.operationId === op.operationId.replace(/^list/, 'count'));
      if (
        !isCount &&
        count &&
        bases.has(count.operationId) &&
        queryMeaningsOf(count).some((m) => m.name === meaning.name)
      )
        expect(Number((await body(api, count.operationId, { ...query, ...asked }, path)).count)).toBe(
          expected.length,
        );
      return;
    }
    if (meaning.role === 'subset' || meaning.role === 'granularity') {
      const values = (parameterOf(op, meaning.name)?.schema.enum as unknown[]) ?? [];
      const answers = await Promise.all(
        values.map(async (value) =>
          JSON.stringify(
            isCount ? await counted({ [meaning.name]: value }) : await list({ [meaning.name]: value }),
          ),
        ),
      );
      expect(new Set(answers).size, `${meaning.name}'s values give different answers`).toBeGreaterThan(1);
      return;
    }
    if (meaning.role === 'modifier') {
      const of = queryMeaningsOf(op).find((m) => m.name === meaning.of) as FilterMeaning;
      const widened = candidates(of, full).some(async (value) => {
        const narrow = isCount
          ? await counted({ [of.name]: typed(op, of.name, value) })
          : (await list({ [of.name]: typed(op, of.name, value) })).length;
        const wide = isCount
          ? await counted({ [of.name]: typed(op, of.name, value), [meaning.name]: 'T' })
          : (await list({ [of.name]: typed(op, of.name, value), [meaning.name]: 'T' })).length;
        expect(wide).toBeGreaterThanOrEqual(narrow);
        return wide > narrow;
      });
      expect(widened, `${meaning.name} widens ${meaning.of} for some seeded value`).toBe(true);
      return;
    }
    if (meaning.role === 'page-size') {
      // A report of one row (member sales, sales per visitor) answers it under any size.
      const size = Math.min(2, Math.max(1, full.length - 1));
      const minimum = Number(parameterOf(op, meaning.name)?.schema.minimum ?? 1);
      const asked = Math.max(size, minimum);
      const page = recordsOf(await body(api, op.operationId, { ...query, [meaning.name]: asked }, path));
      expect(page).toEqual(full.slice(0, asked));
      if (full.length > asked) expect(page.length).toBeLessThan(full.length);
      return;
    }
    if (meaning.role === 'page-offset') {
      const size = meaningOf(op, 'page-size');
      const page = recordsOf(
        await body(
          api,
          op.operationId,
          { ...query, [meaning.name]: 1, ...(size ? { [size.name]: 2 } : {}) },
          path,
        ),
      );
      expect(page).toEqual(full.slice(1, 3));
      return;
    }
    if (meaning.role === 'sort' || meaning.role === 'order') {
      const sort = meaning.role === 'sort' ? meaning : meaningOf(op, 'sort');
      const order = meaning.role === 'order' ? meaning : meaningOf(op, 'order');
      const keys = ((parameterOf(op, sort?.name ?? '')?.schema.enum as string[]) ?? []).filter((k) =>
        full.some((r) => k in r),
      );
      expect(keys.length, 'a sort key the records carry').toBeGreaterThan(0);
      for (const key of keys) {
        const asc = (await list({ [sort?.name ?? '']: key, ...(order ? { [order.name]: 'asc' } : {}) })).map(
          (r) => r[key],
        );
        const compare = (a: unknown, b: unknown) =>
          typeof a === 'number' || /^\d+(\.\d+)?$/.test(String(a))
            ? Number(a) - Number(b)
            : /^\d{4}-\d\d-\d\d/.test(String(a))
              ? Date.parse(String(a)) - Date.parse(String(b))
              : String(a).localeCompare(String(b));
        expect(new Set(asc.map(String)).size, `${key} differs between records`).toBeGreaterThan(1);
        for (let i = 1; i < asc.length; i++)
          expect(compare(asc[i - 1], asc[i]), `${key} ascending`).toBeLessThanOrEqual(0);
        if (order) {
          const desc = (await list({ [sort?.name ?? '']: key, [order.name]: 'desc' })).map((r) => r[key]);
          for (let i = 1; i < desc.length; i++)
            expect(compare(desc[i - 1], desc[i]), `${key} descending`).toBeGreaterThanOrEqual(0);
        }
      }
      return;
    }
    if (meaning.role === 'projection') {
      // An attribute every listed record carries (created and seeded records differ in which they hold).
      const attribute = Object.keys(full[0] ?? {}).find(
        (k) => k !== meaning.keeps && full.every((record) => Object.hasOwn(record, k)),
      ) as string;
      for (const record of await list({ [meaning.name]: [attribute] }))
        expect(Object.keys(record).sort()).toEqual([attribute, meaning.keeps].sort());
      return;
    }
    if (meaning.role === 'embed') {
      const names = (
        ((parameterOf(op, meaning.name)?.schema.items as Body | undefined)?.enum ?? []) as string[]
      ).filter((name) => !rules.requiresOneOf.some((r) => r.name === meaning.name && r.value === name));
      for (const name of names)
        for (const record of await list({ [meaning.name]: [name] })) expect(record).toHaveProperty(name);
      return;
    }
    if (meaning.role === 'shop') {
      const answered = isCount ? [] : await list({ [meaning.name]: 2 });
      for (const record of answered) if ('shop_no' in record) expect(record.shop_no).toBe(2);
      if (isCount) expect(await counted({ [meaning.name]: 2 })).toBeGreaterThanOrEqual(0);
      return;
    }
    if (meaning.role === 'mall') {
      for (const asked of [otherMall, 'no-such-mall'])
        expect(await call(api, op.operationId, { ...query, [meaning.name]: asked }, path)).toMatchObject({
          ok: false,
          reason: 'forbidden',
        });
      return;
    }
    if (meaning.role === 'period-start' || meaning.role === 'period-end') {
      const day = meaning.role === 'period-start' ? period.end_date : period.start_date;
      const short = await list({ [meaning.name]: day });
      for (const record of short)
        for (const field of meaning.datedBy)
          if (field in record) expect(String(record[field]).slice(0, 10)).toBe(day);
      expect(JSON.stringify(short)).not.toBe(JSON.stringify(full));
      return;
    }
    if (meaning.role === 'page-after') {
      const [first] = full;
      const after = recordValues(first ?? {}, meaning.field)[0];
      expect(await list({ [meaning.name]: typed(op, meaning.name, after) })).toEqual(full.slice(1));
      return;
    }
    throw new Error(`no check for the role ${meaning.role}`);
  });
});
