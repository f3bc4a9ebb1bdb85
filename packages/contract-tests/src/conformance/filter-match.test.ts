// A record satisfies a filter as its declared match says, and the value a check filters on is read
// from the answered records: the one the fewest of them satisfy, at least one.
import type { FilterMeaning, Json } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { filterHolds, filterValueFrom, kstDay } from './filter-match.js';

const filter = (
  match: FilterMeaning['match'],
  field: string,
  extra: Partial<FilterMeaning> = {},
): FilterMeaning => ({
  name: 'p',
  role: 'filter',
  list: false,
  provenance: 'inferred',
  field,
  match,
  ...extra,
});
const any = (value: Json) => value;

describe('filterHolds', () => {
  it.each<[FilterMeaning['match'], unknown, Json, boolean]>([
    ['equals', { a: 'X' }, 'X', true],
    ['equals', { a: 'X' }, 'x', false],
    ['equals', { a: 10 }, '10', true],
    ['equals-ci', { a: 'Blue' }, 'bLUE', true],
    ['equals-number', { a: '1.50' }, 1.5, true],
    ['contains-ci', { a: 'Linen Trousers' }, 'linen', true],
    ['contains-ci', { a: 'Linen Trousers' }, 'wool', false],
    ['min', { a: '105900.00' }, 105900, true],
    ['min', { a: '9900.00' }, 10000, false],
    ['max', { a: '9900.00' }, 10000, true],
    ['max', {}, 10000, false],
    ['greater-than', { a: 5 }, 5, false],
    ['date-from', { a: '2026-01-12T00:30:00+09:00' }, '2026-01-12', true],
    ['date-to', { a: '2026-01-12T23:30:00+09:00' }, '2026-01-12', true],
    ['date-to', { a: '2026-01-12T15:30:00Z' }, '2026-01-12', false],
    ['flag', { a: 'T' }, true, true],
    ['flag', { a: 'F' }, 'F', true],
    ['flag', { a: 'T' }, 'F', false],
    ['has-any', { a: ['x', 'y'] }, 'y', true],
    ['has-any-ci', { a: ['X'] }, 'x', true],
    ['empty', { a: [] }, 'T', true],
    ['empty', { a: ['x'] }, 'T', false],
    ['non-empty', { a: ['x'] }, 'T', true],
    ['non-empty', {}, 'F', true],
  ])('%s: %j with %j is %s', (match, record, value, holds) => {
    expect(filterHolds(filter(match, 'a'), record, value)).toBe(holds);
  });

  it('walks list paths and takes a comma list as OR', () => {
    const meaning = filter('equals', 'category[].category_no', { list: true });
    const record = { category: [{ category_no: 24 }, { category_no: 25 }] };
    expect(filterHolds(meaning, record, [99, 25])).toBe(true);
    expect(filterHolds(meaning, record, [99])).toBe(false);
  });

  it('reads attribute-value and key-value items', () => {
    const attribute = filter('attribute-value', '', { attributes: ['shop_grade'] });
    expect(filterHolds(attribute, { shop_grade: 'A' }, 'shop_grade:A')).toBe(true);
    expect(filterHolds(attribute, { shop_grade: 'B' }, 'shop_grade:A')).toBe(false);
    const keyValue = filter('key-value', 'tags', { entry: { key: 'name', value: 'value' } });
    expect(filterHolds(keyValue, { tags: [{ name: 'age', value: '20' }] }, 'age:20')).toBe(true);
    expect(filterHolds(keyValue, { tags: [{ name: 'age', value: '30' }] }, 'age:20')).toBe(false);
  });
});

describe('filterValueFrom', () => {
  const records = [
    { a: 'X', n: 1 },
    { a: 'Y', n: 5 },
    { a: 'X', n: 3 },
  ];

  it('picks the value the fewest answered records satisfy', () => {
    expect(filterValueFrom(filter('equals', 'a'), records, any)).toEqual({ value: 'Y', selects: 1 });
    expect(filterValueFrom(filter('min', 'n'), records, any)).toEqual({ value: 5, selects: 1 });
    expect(filterValueFrom(filter('max', 'n'), records, any)).toEqual({ value: 1, selects: 1 });
  });

  it('offers a list filter its value as a one-item list, and only what the parameter accepts', () => {
    expect(filterValueFrom(filter('equals', 'a', { list: true }), records, any)?.value).toEqual(['Y']);
    const onlyX = (value: Json) => (value === 'X' ? value : undefined);
    expect(filterValueFrom(filter('equals', 'a'), records, onlyX)).toEqual({ value: 'X', selects: 2 });
  });

  it('offers nothing when no record carries the field', () => {
    expect(filterValueFrom(filter('equals', 'missing'), records, any)).toBeUndefined();
  });

  it('reads days in Korean time', () => {
    expect(kstDay('2026-01-12T15:30:00Z')).toBe('2026-01-13');
    expect(kstDay('2026-01-12')).toBe('2026-01-12');
    expect(kstDay(12)).toBeUndefined();
  });
});
