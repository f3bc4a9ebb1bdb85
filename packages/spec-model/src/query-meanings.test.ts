// The query parameter meanings (`x-query`) as the three bundles declare them, and how a declaration
// and a field path read.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from './json-document.js';
import { indexOperations, type OperationEntry } from './operation-index.js';
import {
  filtersAmong,
  mallParameterOf,
  QueryMeaningError,
  queryMeaningsOf,
  recordValues,
} from './query-meanings.js';
import { createSpecModel, loadSpecSync } from './spec-model.js';

const operation = (api: 'collection' | 'admin' | 'analytics', operationId: string): OperationEntry => {
  const found = loadSpecSync(api).operation(operationId);
  if (!found) throw new Error(`no ${operationId}`);
  return found;
};

const single = (parameter: JsonObject): OperationEntry => {
  const document = {
    openapi: '3.1.0',
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          parameters: [parameter],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  } as unknown as JsonObject;
  const found = createSpecModel(document).operation('listThings');
  if (!found) throw new Error('no listThings');
  return found;
};

describe('queryMeaningsOf', () => {
  it('gives every query parameter of the three APIs a meaning', () => {
    for (const api of ['collection', 'admin', 'analytics'] as const)
      for (const entry of indexOperations(loadSpecSync(api).document)) {
        const queryNames = entry.parameters.filter((p) => p.in === 'query').map((p) => p.name);
        expect(queryMeaningsOf(entry).map((m) => m.name)).toEqual(queryNames);
      }
  });

  it('reads a collection range bound, a comma list and a standard-tag filter', () => {
    const meanings = queryMeaningsOf(operation('collection', 'listProducts'));
    const byName = new Map(meanings.map((m) => [m.name, m]));
    expect(byName.get('review_score_min')).toMatchObject({
      role: 'filter',
      field: 'review_score',
      match: 'min',
    });
    expect(byName.get('shop_name')).toMatchObject({ match: 'contains-ci', list: true });
    expect(byName.get('product_standard_tags')).toMatchObject({
      match: 'key-value',
      field: 'product_standard_tags[]',
      entry: { key: 'standard_tags_key', value: 'standard_tags_values' },
    });
    expect(byName.get('limit')).toMatchObject({ role: 'page-size', list: false });
  });

  it('folds the store attribute filter into its meaning', () => {
    const [filter] = filtersAmong(queryMeaningsOf(operation('collection', 'listShops'))).filter(
      (m) => m.match === 'attribute-value',
    );
    expect(filter?.name).toBe('shop_properties');
    expect(filter?.attributes).toContain('shop_grade');
  });

  it('reads the admin shop, projection, modifier and subset roles', () => {
    const byName = new Map(queryMeaningsOf(operation('admin', 'listProducts')).map((m) => [m.name, m]));
    expect(byName.get('shop_no')?.role).toBe('shop');
    expect(byName.get('fields')).toMatchObject({ role: 'projection', keeps: 'product_no' });
    expect(byName.get('include_sub_category')).toMatchObject({ role: 'modifier', of: 'category' });
    expect(byName.get('product_bundle')).toMatchObject({ role: 'subset', by: 'bundle' });
  });

  it('reads the analytics mall and period', () => {
    const byName = new Map(
      queryMeaningsOf(operation('analytics', 'listOrderDetails')).map((m) => [m.name, m]),
    );
    expect(byName.get('mall_id')?.role).toBe('mall');
    expect(byName.get('start_date')).toMatchObject({ role: 'period-start', datedBy: ['date', 'order_date'] });
    expect(byName.get('orderId')).toMatchObject({ role: 'filter', field: 'order_id', match: 'equals' });
  });

  it('refuses a query parameter without a declaration, or with an unknown role or match', () => {
    const base = { name: 'q', in: 'query', schema: { type: 'string' } };
    expect(() => queryMeaningsOf(single(base))).toThrow(QueryMeaningError);
    expect(() => queryMeaningsOf(single({ ...base, 'x-query': { role: 'guess' } }))).toThrow(/no known role/);
    expect(() =>
      queryMeaningsOf(single({ ...base, 'x-query': { role: 'filter', field: 'q', match: 'like' } })),
    ).toThrow(/unknown match/);
    expect(() => queryMeaningsOf(single({ ...base, 'x-query': { role: 'filter', match: 'min' } }))).toThrow(
      /needs field/,
    );
  });

  it('leaves path and header parameters out', () => {
    const entry = single({ name: 'id', in: 'path', required: true, schema: { type: 'integer' } });
    expect(queryMeaningsOf(entry)).toEqual([]);
  });
});

describe('recordValues', () => {
  const record = {
    price: '10.00',
    category: [{ category_no: 4 }, { category_no: 7 }],
    levels: { depth1: 'C1', depth2: 'C2' },
    tags: ['a', 'b'],
  };

  it('reaches a field, each item of a list and each value of an object', () => {
    expect(recordValues(record, 'price')).toEqual(['10.00']);
    expect(recordValues(record, 'category[].category_no')).toEqual([4, 7]);
    expect(recordValues(record, 'levels.*')).toEqual(['C1', 'C2']);
  });

  it('returns a list reached last as one value, and nothing for a missing step', () => {
    expect(recordValues(record, 'tags')).toEqual([['a', 'b']]);
    expect(recordValues(record, 'variants[].stock_quantity')).toEqual([]);
    expect(recordValues(record, 'price.amount')).toEqual([]);
  });
});

describe('the lint and the reader', () => {
  it('know the same roles and comparisons', async () => {
    const lint = await import('../../../specs/lint/query-meaning.js');
    const { filterMatches, queryRoles } = await import('./query-meanings.js');
    expect(lint.queryRoles).toEqual([...queryRoles]);
    expect(lint.filterMatches).toEqual([...filterMatches]);
  });
});

describe('mallParameterOf', () => {
  it('names the parameter whose role is the mall read, and nothing where no parameter has it', () => {
    expect(mallParameterOf(operation('analytics', 'listVisitorViews'))).toBe('mall_id');
    expect(mallParameterOf(operation('admin', 'listProducts'))).toBeUndefined();
  });
});
