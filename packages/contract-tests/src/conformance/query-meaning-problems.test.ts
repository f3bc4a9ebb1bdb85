// What an answer must show about a declared query meaning, judged on fake answers.
import type { FilterMeaning, JsonObject } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import {
  answeredRecords,
  countProblems,
  datedDays,
  embedProblems,
  filterProblems,
  periodProblems,
  projectionProblems,
} from './query-meaning-problems.js';

const name: FilterMeaning = {
  name: 'product_name',
  role: 'filter',
  list: false,
  provenance: 'inferred',
  field: 'product_name',
  match: 'contains-ci',
};
const all = [{ product_name: 'Linen' }, { product_name: 'Wool' }, { product_name: 'linen shirt' }];

describe('filterProblems', () => {
  it('passes an answer of exactly the records that satisfy the filter', () => {
    expect(
      filterProblems(name, 'linen', { records: all, complete: true }, [all[0], all[2]] as never),
    ).toEqual([]);
  });

  it('fails a server that ignores the filter', () => {
    const problems = filterProblems(name, 'linen', { records: all, complete: true }, all);
    expect(problems[0]).toMatch(/answered record 1 whose product_name does not contains-ci it/);
    expect(problems[1]).toMatch(/answered 3 records where 2 of the whole list satisfy it/);
  });

  it('fails an empty answer where an unfiltered record satisfies the filter, and one that widens', () => {
    expect(filterProblems(name, 'linen', { records: all, complete: false }, [])).toEqual([
      'product_name="linen" answered nothing, though 2 records without it satisfy it',
    ]);
    const wider = [...all, { product_name: 'linen cap' }];
    expect(
      filterProblems(name, 'linen', { records: all.slice(0, 1), complete: false }, wider.slice(2)),
    ).toEqual(['product_name="linen" answered 2 records, more than the 1 without it']);
  });

  it('only checks the records of a required filter (no answer leaves it out)', () => {
    expect(filterProblems(name, 'linen', undefined, [])).toEqual([]);
    expect(filterProblems(name, 'linen', undefined, all)).toHaveLength(1);
  });
});

describe('the other meanings', () => {
  it('count must equal the listed total', () => {
    expect(countProblems('count', { count: 3 }, 3)).toEqual([]);
    expect(countProblems('count', { count: 4 }, 3)).toEqual(['count: count 4, but the list holds 3 records']);
    expect(countProblems('count', {}, 3)).toEqual(['count: the answer carries no count']);
  });

  it('fields= leaves only the named attributes and the kept id', () => {
    expect(projectionProblems([{ product_no: 1, price: '1' }], ['price'], 'product_no')).toEqual([]);
    expect(
      projectionProblems([{ product_no: 1, price: '1', display: 'T' }], ['price'], 'product_no'),
    ).toEqual(['fields=price answered record 0 with display too']);
  });

  it('embed= adds the member to every record', () => {
    expect(embedProblems([{ seo: {} }], 'seo')).toEqual([]);
    expect(embedProblems([{ seo: {} }, {}], 'seo')).toEqual(['embed=seo answered record 1 without seo']);
  });

  it('rows of a period lie inside it', () => {
    const rows: JsonObject[] = [
      { date: '2026-10-01T00:00:00+09:00' },
      { order_date: '2026-10-02T10:00:00+09:00' },
    ];
    expect(datedDays(rows, ['date', 'order_date'])).toEqual(['2026-10-01', '2026-10-02']);
    expect(periodProblems(rows, ['date', 'order_date'], '2026-10-01', '2026-10-02')).toEqual([]);
    expect(periodProblems(rows, ['date', 'order_date'], '2026-10-02', '2026-10-02')).toEqual([
      'the period 2026-10-02–2026-10-02 answered row 0 with date 2026-10-01T00:00:00+09:00',
    ]);
  });

  it('answeredRecords reads a list or the one record of a single read', () => {
    expect(answeredRecords({ products: [{ a: 1 }] })).toEqual([{ a: 1 }]);
    expect(answeredRecords({ product: { a: 1 } })).toEqual([{ a: 1 }]);
    expect(answeredRecords({ count: 1 })).toEqual([]);
  });
});
