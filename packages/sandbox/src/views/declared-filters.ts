// The record test of a list or count query, from the query parameters' declared meanings
// (`x-query`): each filter tests its field by its comparison (a comma list as OR), filters combine
// with AND, a modifier widens its filter, a subset parameter tests what the view selects by. What
// does not depend on the query is prepared once per operation. No parameter is named here.
import { type FilterMeaning, fieldTester, type QueryMeaning } from '@mall-api/spec-model';
import { parseBound } from '../support/kst-time.js';
import { cached } from '../support/memo.js';

/** What the declarations need to know beyond the record. */
export interface FilterContext<R> {
  /**
   * Attributes of the answered record the stored record does not hold itself, by name (an admin
   * product's `variants`, built only when a filter reads them).
   */
  readonly derived?: Readonly<Record<string, (record: R) => unknown>>;
  /** The values a filter's value covers with `include-descendants` (a category and those below). */
  descendants?(filter: string, value: unknown): readonly unknown[];
  /** The test of a `subset` parameter, by what it selects by (`bundle`). */
  readonly subsets?: Readonly<Record<string, (record: R, value: unknown) => boolean>>;
}

type Test = (value: unknown) => boolean;

const isTrue = (value: unknown) => value === true || value === 'T';
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Lower-cased forms of the values case-insensitive tests met (records repeat across calls). */
const lowered = new Map<string, string>();
const loweredLimit = 100_000;
const lower = (value: unknown): string => {
  const word = text(value);
  let found = lowered.get(word);
  if (found === undefined) {
    if (lowered.size >= loweredLimit) lowered.clear();
    found = word.toLowerCase();
    lowered.set(word, found);
  }
  return found;
};
const asNumber = (value: unknown) =>
  value === null || value === undefined || value === '' ? Number.NaN : Number(value);
const listed = (value: unknown, has: (item: string) => boolean) =>
  Array.isArray(value) ? value.some((item) => has(text(item))) : value !== undefined && has(text(value));

/** The test of one field value against one parameter value, by the declared comparison. */
function valueTest(match: FilterMeaning['match'], wanted: unknown): Test {
  const word = text(wanted);
  const small = word.toLowerCase();
  const number = asNumber(wanted);
  switch (match) {
    case 'equals':
      return (value) => text(value) === word;
    case 'equals-ci':
      return (value) => lower(value) === small;
    case 'equals-number':
      return (value) => asNumber(value) === number;
    case 'contains-ci':
      return (value) => lower(value).includes(small);
    case 'min':
      return (value) => asNumber(value) >= number;
    case 'max':
      return (value) => asNumber(value) <= number;
    case 'greater-than':
      return (value) => asNumber(value) > number;
    case 'date-from': {
      const bound = parseBound(word, false);
      return (value) => Date.parse(text(value)) >= bound;
    }
    case 'date-to': {
      const bound = parseBound(word, true);
      return (value) => Date.parse(text(value)) <= bound;
    }
    case 'has-any':
      return (value) => Array.isArray(value) && value.some((item) => text(item) === word);
    case 'has-any-ci':
      return (value) => Array.isArray(value) && value.some((item) => lower(item) === small);
    default:
      throw new Error(`${match} is not a comparison of one value`);
  }
}

/** The test of a whole record for one parameter value. */
function recordTest<R>(
  meaning: FilterMeaning,
  wanted: unknown,
  reach: (record: R, test: Test) => boolean,
): (record: R) => boolean {
  const { match } = meaning;
  if (match === 'flag') {
    const want = isTrue(wanted);
    return want ? (r) => reach(r, isTrue) : (r) => !reach(r, isTrue);
  }
  if (match === 'empty' || match === 'non-empty') {
    const wantFilled = isTrue(wanted) === (match === 'non-empty');
    const filled = (r: R) => reach(r, (value) => Array.isArray(value) && value.length > 0);
    return wantFilled ? filled : (r) => !filled(r);
  }
  if (match === 'attribute-value') {
    const item = text(wanted);
    const at = item.indexOf(':');
    const attribute = item.slice(0, at);
    const value = item.slice(at + 1);
    return (r) => listed((r as Record<string, unknown>)[attribute], (held) => held === value);
  }
  if (match === 'key-value') {
    const item = text(wanted);
    const at = item.indexOf(':');
    const [key, value] = [item.slice(0, at), item.slice(at + 1)];
    const entry = meaning.entry as { key: string; value: string };
    return (r) =>
      reach(r, (found) => {
        const held = found as Record<string, unknown> | null;
        return (
          typeof held === 'object' &&
          held !== null &&
          text(held[entry.key]) === key &&
          text(held[entry.value]) === value
        );
      });
  }
  const test = valueTest(match, wanted);
  return (r) => reach(r, test);
}

/** How a filter reaches its field: on the record, or on an attribute the context derives. */
function reacher<R>(field: string, context: FilterContext<R>): Reach<R> {
  const tester = fieldTester(field);
  const first = field.split('.')[0]?.replace('[]', '') ?? '';
  const derive = context.derived?.[first];
  if (!derive) return tester;
  return (record, test) => tester({ [first]: derive(record) }, test);
}

type Reach<R> = (record: R, test: Test) => boolean;

/** A filter prepared once per operation: how it reaches its field, which modifiers widen it. */
interface PreparedFilter<R> {
  readonly meaning: FilterMeaning;
  readonly reach: Reach<R>;
  /** The attribute a one-attribute path names, read directly when the context derives nothing. */
  readonly attribute: string | undefined;
  readonly widenedBy: readonly string[];
}

const oneAttribute = /^[^.*[\]]+$/;

/** The order filters are tested in, by comparison: the likely most selective (and cheapest) first. */
const testOrder: Partial<Record<FilterMeaning['match'], number>> = {
  'contains-ci': 1,
  'equals-ci': 1,
  'has-any-ci': 1,
  flag: 2,
  empty: 2,
  'non-empty': 2,
  min: 3,
  max: 3,
  'greater-than': 3,
  'date-from': 4,
  'date-to': 4,
};
const rank = (filter: PreparedFilter<unknown>) => testOrder[filter.meaning.match] ?? 0;

/** The filters of an operation's declarations, prepared under one context. */
const prepared = new WeakMap<readonly QueryMeaning[], WeakMap<object, PreparedFilter<unknown>[]>>();
function prepare<R>(meanings: readonly QueryMeaning[], context: FilterContext<R>): PreparedFilter<R>[] {
  const byContext = cached(prepared, meanings, () => new WeakMap());
  return cached(byContext, context, () => {
    const filters = meanings.flatMap((meaning): PreparedFilter<R>[] =>
      meaning.role === 'filter'
        ? [
            {
              meaning,
              reach: reacher(meaning.field, context),
              attribute:
                oneAttribute.test(meaning.field) && !context.derived?.[meaning.field]
                  ? meaning.field
                  : undefined,
              widenedBy: meanings.flatMap((m) =>
                m.role === 'modifier' && m.of === meaning.name ? [m.name] : [],
              ),
            },
          ]
        : [],
    );
    return filters.sort((a, b) => rank(a as PreparedFilter<unknown>) - rank(b as PreparedFilter<unknown>));
  }) as PreparedFilter<R>[];
}

/** The record test of one filter for the values it was given. */
function filterTest<R>(filter: PreparedFilter<R>, values: readonly unknown[]): (record: R) => boolean {
  const { meaning, reach, attribute } = filter;
  const direct = ['flag', 'empty', 'non-empty', 'attribute-value', 'key-value'].includes(meaning.match)
    ? undefined
    : attribute;
  if (meaning.match === 'equals' && values.length > 1) {
    const set = new Set(values.map(text));
    const test: Test = (value) => set.has(text(value));
    return direct ? (record) => valueAt(record, direct, test) : (record) => reach(record, test);
  }
  if (direct && values.length === 1) {
    const test = valueTest(meaning.match, values[0]);
    return (record) => valueAt(record, direct, test);
  }
  const tests = values.map((value) => recordTest(meaning, value, reach));
  return tests.length === 1 ? (tests[0] as (record: R) => boolean) : (r) => tests.some((t) => t(r));
}

/** Whether the attribute `key` of `record` is present and passes `test`. */
const valueAt = (record: unknown, key: string, test: Test): boolean => {
  const value = (record as Record<string, unknown>)[key];
  return value !== undefined && test(value);
};

/** The context of records that need nothing beyond themselves. */
const noContext: FilterContext<unknown> = {};

/**
 * The record test of `query` under the operation's declared `meanings`: true for a record every
 * given filter and subset accepts. Pass the same `meanings` and `context` objects on every call to
 * reuse what does not depend on the query.
 */
export function declaredMatcher<R>(
  meanings: readonly QueryMeaning[],
  query: Readonly<Record<string, unknown>>,
  context: FilterContext<R> = noContext as FilterContext<R>,
): (record: R) => boolean {
  const checks: ((record: R) => boolean)[] = [];
  for (const filter of prepare(meanings, context)) {
    const given = query[filter.meaning.name];
    if (given === undefined) continue;
    const values = Array.isArray(given) ? given : [given];
    const widened = filter.widenedBy.some((name) => isTrue(query[name]));
    const covered =
      widened && context.descendants
        ? values.flatMap((value) => context.descendants?.(filter.meaning.name, value) ?? [value])
        : values;
    checks.push(filterTest(filter, covered));
  }
  for (const meaning of meanings) {
    if (meaning.role !== 'subset') continue;
    const given = query[meaning.name];
    const test = context.subsets?.[meaning.by];
    if (given !== undefined && test) checks.push((record) => test(record, given));
  }
  return allOf(checks);
}

/** One predicate true when every check is (checks run in order, stopping at the first false). */
function allOf<R>(checks: readonly ((record: R) => boolean)[]): (record: R) => boolean {
  const [a, b, c] = checks;
  switch (checks.length) {
    case 0:
      return () => true;
    case 1:
      return a as (record: R) => boolean;
    case 2:
      return (record) => (a as (r: R) => boolean)(record) && (b as (r: R) => boolean)(record);
    case 3:
      return (record) =>
        (a as (r: R) => boolean)(record) &&
        (b as (r: R) => boolean)(record) &&
        (c as (r: R) => boolean)(record);
    default:
      return (record) => {
        for (const check of checks) if (!check(record)) return false;
        return true;
      };
  }
}
