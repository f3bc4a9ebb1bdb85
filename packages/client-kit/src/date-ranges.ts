// Splits a long date range into consecutive sub-ranges an API accepts (at most `maxDays` days
// each, and never across a given boundary date), so a report over a year can be fetched as many
// requests and merged in order. Dates are calendar dates, `YYYY-MM-DD`, inclusive at both ends.

/** A calendar date range, inclusive. */
export interface DateRange {
  start: string;
  end: string;
}

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const dayMs = 86_400_000;
const toDay = (date: string) => {
  if (!datePattern.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  }
  return Date.parse(`${date}T00:00:00Z`) / dayMs;
};
const fromDay = (day: number) => new Date(day * dayMs).toISOString().slice(0, 10);

/**
 * Splits `range` into consecutive ranges of at most `maxDays` days; a `boundaries` date starts a
 * new range (e.g. `2023-01-01`, where the analytics data source changes).
 */
export function splitDateRange(
  range: DateRange,
  options: { maxDays: number; boundaries?: readonly string[] },
): DateRange[] {
  const { maxDays, boundaries = [] } = options;
  if (!Number.isInteger(maxDays) || maxDays < 1) throw new RangeError('maxDays must be a positive integer');
  const first = toDay(range.start);
  const last = toDay(range.end);
  if (last < first) throw new RangeError(`end ${range.end} is before start ${range.start}`);
  const cuts = boundaries
    .map(toDay)
    .filter((day) => day > first && day <= last)
    .sort((a, b) => a - b);
  const ranges: DateRange[] = [];
  let start = first;
  while (start <= last) {
    const nextCut = cuts.find((day) => day > start) ?? Number.POSITIVE_INFINITY;
    const end = Math.min(last, start + maxDays - 1, nextCut - 1);
    ranges.push({ start: fromDay(start), end: fromDay(end) });
    start = end + 1;
  }
  return ranges;
}
