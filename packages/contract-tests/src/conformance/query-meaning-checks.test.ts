// The query-meaning checks against a fake server answering from a few records: they pass when it
// honours every declared meaning, and each fails when it ignores one.
import type { Answer } from '@mall-api/mock-server/answer-checks';
import { createSpecModel, type Json, type JsonObject } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import type { ConformanceClient, Outgoing } from './conformance-client.js';
import { queryMeaningChecks } from './query-meaning-checks.js';

const query = (name: string, schema: JsonObject, meaning: JsonObject, extra: JsonObject = {}) => ({
  name,
  in: 'query',
  schema,
  ...extra,
  'x-query': meaning,
});
const [nameFilter, ...paging] = [
  query('name', { type: 'string' }, { role: 'filter', field: 'name', match: 'contains-ci' }),
  query('limit', { type: 'integer', maximum: 100 }, { role: 'page-size' }),
  query('offset', { type: 'integer' }, { role: 'page-offset' }),
];
const ok = { '200': { description: 'ok' } };
const model = createSpecModel({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        parameters: [
          nameFilter,
          ...paging,
          query(
            'fields',
            { type: 'array', items: { type: 'string' } },
            { role: 'projection', keeps: 'id' },
            { style: 'form', explode: false },
          ),
          query(
            'embed',
            { type: 'array', items: { type: 'string', enum: ['seo'] } },
            { role: 'embed' },
            { style: 'form', explode: false },
          ),
        ],
        responses: ok,
      },
    },
    '/items/count': { get: { operationId: 'countItems', parameters: [nameFilter], responses: ok } },
    '/stats': {
      get: {
        operationId: 'listStats',
        parameters: [
          query(
            'start_date',
            { type: 'string' },
            { role: 'period-start', 'dated-by': ['date'] },
            { required: true, example: '2026-10-01' },
          ),
          query(
            'end_date',
            { type: 'string' },
            { role: 'period-end', 'dated-by': ['date'] },
            { required: true, example: '2026-10-03' },
          ),
        ],
        responses: ok,
      },
    },
  },
});

const items = [
  { id: 1, name: 'Linen', price: 1 },
  { id: 2, name: 'Wool', price: 2 },
  { id: 3, name: 'linen shirt', price: 3 },
];
const days = ['2026-10-01', '2026-10-02', '2026-10-03'];

type Ignored = 'filter' | 'count' | 'fields' | 'embed' | 'period' | 'nothing';

/** A server honouring every meaning but `ignored`. */
function fakeServer(ignored: Ignored) {
  return ({ operation, parts }: Outgoing): Answer => {
    const q = parts.query as Record<string, Json>;
    const answer = (body: Json): Answer => ({ status: 200, headers: new Headers(), body });
    if (operation.operationId === 'listStats') {
      const [from, to] = ignored === 'period' ? [days[0], days[2]] : [q.start_date, q.end_date];
      return answer({
        stats: days
          .filter((d) => d >= String(from) && d <= String(to))
          .map((date) => ({ date: `${date}T00:00:00+09:00` })),
      });
    }
    const named = typeof q.name === 'string' && ignored !== 'filter' ? q.name.toLowerCase() : undefined;
    let found: JsonObject[] = items.filter((item) => !named || item.name.toLowerCase().includes(named));
    if (operation.operationId === 'countItems')
      return answer({ count: found.length + (ignored === 'count' ? 1 : 0) });
    found = found.slice(Number(q.offset ?? 0), Number(q.offset ?? 0) + Number(q.limit ?? 10));
    if (Array.isArray(q.fields) && ignored !== 'fields') {
      const keep = new Set(['id', ...q.fields.map(String)]);
      found = found.map((item) => Object.fromEntries(Object.entries(item).filter(([key]) => keep.has(key))));
    }
    if (Array.isArray(q.embed) && ignored !== 'embed') found = found.map((item) => ({ ...item, seo: {} }));
    return answer({ items: found });
  };
}

async function run(ignored: Ignored) {
  const answer = fakeServer(ignored);
  let sent = 0;
  const client: ConformanceClient = {
    send: async (request) => {
      sent++;
      return answer(request);
    },
    get sent() {
      return sent;
    },
    has: () => true,
    forbiddenScopes: undefined,
    sleep: async () => {},
  };
  const checks = queryMeaningChecks({ model, client, answers: { problems: () => [] } as never, seed: 1 });
  const results = [];
  for (const check of checks)
    results.push({ group: check.group, name: check.name, outcome: await check.run() });
  return { results, sent };
}

describe('the query-meaning checks', () => {
  it('pass a server honouring every meaning, reading each unfiltered answer once', async () => {
    const { results, sent } = await run('nothing');
    expect(results.map((r) => r.group).sort()).toEqual([
      'count',
      'count',
      'embed',
      'fields',
      'filters',
      'period',
    ]);
    expect(results.filter((r) => !('problems' in r.outcome) || r.outcome.problems.length > 0)).toEqual([]);
    // listItems unfiltered once; filter, fields, embed once each; count: 2 × (list + count); period: 1.
    expect(sent).toBe(1 + 3 + 4 + 1 + 1);
  });

  it.each<[Ignored, string]>([
    ['filter', 'filters'],
    ['count', 'count'],
    ['fields', 'fields'],
    ['embed', 'embed'],
    ['period', 'period'],
  ])('catch a server ignoring the %s', async (ignored, group) => {
    const { results } = await run(ignored);
    const failed = results.filter((r) => 'problems' in r.outcome && r.outcome.problems.length > 0);
    expect(failed.map((r) => r.group)).toContain(group);
    expect(failed.every((r) => r.group === group)).toBe(true);
  });
});
