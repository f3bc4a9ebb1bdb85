// Whether a record satisfies a filter as its `x-query` declares it (spec-model's FilterMeaning:
// the record field, reached with `recordValues`, and the comparison), and which value to filter on:
// one read from the records the server answered without the filter, the one selecting the fewest
// of them (and at least one), so the filtered answer is non-empty and a server ignoring the filter
// shows it. Pure functions of records; sending is query-meaning-checks.ts's job.
import { type FilterMeaning, type Json, recordValues } from '@mall-api/spec-model';

/** The day (`YYYY-MM-DD`, Korean time) a date or date-time names. */
export function kstDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  return new Date(time + 9 * 3600_000).toISOString().slice(0, 10);
}

const number = (value: unknown) =>
  typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')
    ? Number(value)
    : Number.NaN;
const truthy = (value: unknown) => value === 'T' || value === true || value === 'true';
const lower = (value: unknown) => String(value).toLowerCase();
const isScalar = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);

/** Whether one value the field reaches matches one item of the parameter. */
function valueMatches(match: FilterMeaning['match'], field: unknown, item: Json): boolean {
  switch (match) {
    case 'equals':
      return typeof field === 'number' || typeof item === 'number'
        ? number(field) === number(item)
        : String(field) === String(item);
    case 'equals-ci':
      return lower(field) === lower(item);
    case 'equals-number':
      return number(field) === number(item);
    case 'contains-ci':
      return isScalar(field) && lower(field).includes(lower(item));
    case 'min':
      return number(field) >= number(item);
    case 'max':
      return number(field) <= number(item);
    case 'greater-than':
      return number(field) > number(item);
    case 'date-from': {
      const day = kstDay(field);
      return day !== undefined && day >= (kstDay(item) ?? String(item));
    }
    case 'date-to': {
      const day = kstDay(field);
      return day !== undefined && day <= (kstDay(item) ?? String(item));
    }
    case 'has-any':
      return Array.isArray(field) && field.map(String).includes(String(item));
    case 'has-any-ci':
      return Array.isArray(field) && field.map(lower).includes(lower(item));
    default:
      return false;
  }
}

/** Whether `record` satisfies one item (not a comma list) of the filter. */
function itemHolds(meaning: FilterMeaning, record: unknown, item: Json): boolean {
  const { match } = meaning;
  if (match === 'attribute-value') {
    const [attribute = '', ...rest] = String(item).split(':');
    const value = rest.join(':');
    return recordValues(record, attribute).some((field) =>
      Array.isArray(field) ? field.map(String).includes(value) : String(field) === value,
    );
  }
  const reached = recordValues(record, meaning.field);
  if (match === 'key-value') {
    const [key = '', ...rest] = String(item).split(':');
    const entries = reached.flatMap((value) => (Array.isArray(value) ? value : [value]));
    return entries.some((entry) => {
      const object = entry as Record<string, unknown> | null;
      return (
        object !== null &&
        typeof object === 'object' &&
        meaning.entry !== undefined &&
        String(object[meaning.entry.key]) === key &&
        String(object[meaning.entry.value]) === rest.join(':')
      );
    });
  }
  if (match === 'flag') return reached.some(truthy) === truthy(item);
  if (match === 'empty' || match === 'non-empty') {
    const filled = reached.some((value) => Array.isArray(value) && value.length > 0);
    return (match === 'non-empty') === filled ? truthy(item) : !truthy(item);
  }
  return reached.some((field) => valueMatches(match, field, item));
}

/** Whether `record` satisfies the filter at `value` (a comma list: any of its items). */
export function filterHolds(meaning: FilterMeaning, record: unknown, value: Json): boolean {
  const items = Array.isArray(value) ? value : [value];
  return items.some((item) => itemHolds(meaning, record, item));
}

/** The values a record offers for a filter: what its field holds, in the filter's terms. */
function offered(meaning: FilterMeaning, record: unknown): Json[] {
  const { match } = meaning;
  if (match === 'flag') return ['T', 'F'];
  if (match === 'empty' || match === 'non-empty') return ['T', 'F'];
  if (match === 'attribute-value')
    return (meaning.attributes ?? []).flatMap((attribute) =>
      recordValues(record, attribute)
        .flatMap((value) => (Array.isArray(value) ? value : [value]))
        .filter(isScalar)
        .map((value) => `${attribute}:${String(value)}`),
    );
  const reached = recordValues(record, meaning.field);
  if (match === 'key-value')
    return reached
      .flatMap((value) => (Array.isArray(value) ? value : [value]))
      .flatMap((entry) => {
        const object = entry as Record<string, unknown> | null;
        if (!meaning.entry || object === null || typeof object !== 'object') return [];
        return [`${String(object[meaning.entry.key])}:${String(object[meaning.entry.value])}`];
      });
  const scalars = reached.flatMap((value) => (Array.isArray(value) ? value : [value])).filter(isScalar);
  if (match === 'date-from' || match === 'date-to') return scalars.flatMap((value) => kstDay(value) ?? []);
  return scalars as Json[];
}

/**
 * The value to filter on, read from `records` (answered without the filter): among the values they
 * offer that `accepts` (the parameter's schema, given the value as it would be sent), the one that
 * the fewest records satisfy and at least one does; undefined when none is offered.
 */
export function filterValueFrom(
  meaning: FilterMeaning,
  records: readonly unknown[],
  accepts: (value: Json) => Json | undefined,
): { value: Json; selects: number } | undefined {
  const seen = new Set<string>();
  let best: { value: Json; selects: number } | undefined;
  for (const record of records)
    for (const candidate of offered(meaning, record)) {
      const value = accepts(meaning.list ? [candidate] : candidate);
      if (value === undefined || seen.has(JSON.stringify(value))) continue;
      seen.add(JSON.stringify(value));
      const selects = records.filter((r) => filterHolds(meaning, r, value)).length;
      if (selects > 0 && (!best || selects < best.selects)) best = { value, selects };
      if (seen.size >= 60) return best;
    }
  return best;
}
