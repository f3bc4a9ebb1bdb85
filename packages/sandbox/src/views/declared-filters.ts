// The record test of a list or count query, built from the query parameters' declared meanings
// (`x-query`, read through `@mall-api/spec-model`): each given filter tests its record field with its
// comparison (the items of a comma list as OR), filters combine with AND, a modifier widens the
// filter it names and a subset parameter tests what the view says it selects by. No parameter is
// named here: a parameter added to a spec is honoured as declared. Paging, sorting, projection,
// embedding and the shop are the views' (they are not record tests).
import { type FilterMeaning, fieldTester, type QueryMeaning } from '@mall-api/spec-model';
import { parseBound } from '../support/kst-time.js';

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
const asNumber = (value: unknown) =>
  value === null || value === undefined || value === '' ? Number.NaN : Number(value);
const listed = (value: unknown, has: (item: string) => boolean) =>
  Array.isArray(value) ? value.some((item) => has(text(item))) : value !== undefined && has(text(value));

/** The test of one field value against one parameter value, by the declared comparison. */
function valueTest(match: FilterMeaning['match'], wanted: unknown): Test {
  const word = text(wanted);
  const lower = word.toLowerCase();
  const number = asNumber(wanted);
  switch (match) {
    case 'equals':
      return (value) => text(value) === word;
    case 'equals-ci':
      return (value) => text(value).toLowerCase() === lower;
    case 'equals-number':
      return (value) => asNumber(value) === number;
    case 'contains-ci':
      return (value) => text(value).toLowerCase().includes(lower);
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
      return (value) => Array.isArray(value) && value.some((item) => text(item).toLowerCase() === lower);
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
function reacher<R>(field: string, context: FilterContext<R>): (record: R, test: Test) => boolean {
  const tester = fieldTester(field);
  const first = field.split('.')[0]?.replace('[]', '') ?? '';
  const derive = context.derived?.[first];
  if (!derive) return tester;
  return (record, test) => tester({ [first]: derive(record) }, test);
}

/**
 * The record test of `query` under the operation's declared `meanings`: true for a record every
 * given filter and subset accepts.
 */
export function declaredMatcher<R>(
  meanings: readonly QueryMeaning[],
  query: Readonly<Record<string, unknown>>,
  context: FilterContext<R> = {},
): (record: R) => boolean {
  const checks: ((record: R) => boolean)[] = [];
  for (const meaning of meanings) {
    const given = query[meaning.name];
    if (given === undefined) continue;
    const values = Array.isArray(given) ? given : [given];
    if (meaning.role === 'subset') {
      const test = context.subsets?.[meaning.by];
      if (test) checks.push((record) => test(record, given));
      continue;
    }
    if (meaning.role !== 'filter') continue;
    const widened = meanings.some(
      (m) => m.role === 'modifier' && m.of === meaning.name && isTrue(query[m.name]),
    );
    const covered =
      widened && context.descendants
        ? values.flatMap((value) => context.descendants?.(meaning.name, value) ?? [value])
        : values;
    const reach = reacher(meaning.field, context);
    if (meaning.match === 'equals' && covered.length > 1) {
      const set = new Set(covered.map(text));
      checks.push((record) => reach(record, (value) => set.has(text(value))));
      continue;
    }
    const tests = covered.map((value) => recordTest(meaning, value, reach));
    checks.push(tests.length === 1 ? (tests[0] as (record: R) => boolean) : (r) => tests.some((t) => t(r)));
  }
  if (checks.length === 0) return () => true;
  if (checks.length === 1) return checks[0] as (record: R) => boolean;
  return (record) => checks.every((check) => check(record));
}
