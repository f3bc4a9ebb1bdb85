// What an answer must show about a query parameter whose meaning the spec declares (`x-query`),
// judged on the answered records alone: a filter's records all satisfy it and never outnumber the
// unfiltered answer; `count` equals the listed total; `fields=` and `embed=` keep or add what they
// name; a statistics period's rows lie inside it. Sending is query-meaning-checks.ts's job.
import { type FilterMeaning, isJsonObject, type Json, type JsonObject } from '@mall-api/spec-model';
import { filterHolds, kstDay } from './filter-match.js';
import { listItems } from './list-behaviour.js';

/** The records of an answer: a list's items, or the one record a single read carries. */
export function answeredRecords(body: Json | undefined): JsonObject[] {
  const items = listItems(body);
  if (items) return items;
  const record = isJsonObject(body) ? Object.values(body).find(isJsonObject) : undefined;
  return record ? [record] : [];
}

const shown = (value: Json) => JSON.stringify(value);

/** The unfiltered answer a filter check compares with: its records, and whether they are all there are. */
export interface Unfiltered {
  readonly records: readonly JsonObject[];
  /** The answer held fewer records than the page size: it is the whole list. */
  readonly complete: boolean;
}

/**
 * Problems of the answer to a filter at `value`: a record that does not satisfy it and, compared
 * with the answer without it (none for a required filter, which no request leaves out): more
 * records, none although an unfiltered record satisfies it, and (when the unfiltered answer was the
 * whole list) another number than the unfiltered records that satisfy it.
 */
export function filterProblems(
  meaning: FilterMeaning,
  value: Json,
  unfiltered: Unfiltered | undefined,
  filtered: readonly JsonObject[],
): string[] {
  const asked = `${meaning.name}=${shown(value)}`;
  const problems: string[] = [];
  const stray = filtered.findIndex((record) => !filterHolds(meaning, record, value));
  if (stray >= 0)
    problems.push(
      `${asked} answered record ${stray} whose ${meaning.field || 'attributes'} does not ${meaning.match} it`,
    );
  if (!unfiltered) return problems;
  if (filtered.length > unfiltered.records.length)
    problems.push(
      `${asked} answered ${filtered.length} records, more than the ${unfiltered.records.length} without it`,
    );
  const expected = unfiltered.records.filter((record) => filterHolds(meaning, record, value)).length;
  if (expected > 0 && filtered.length === 0)
    problems.push(`${asked} answered nothing, though ${expected} records without it satisfy it`);
  else if (unfiltered.complete && filtered.length !== expected)
    problems.push(
      `${asked} answered ${filtered.length} records where ${expected} of the whole list satisfy it`,
    );
  return problems;
}

/** Problems of a count answer against the number of records the same filters list. */
export function countProblems(asked: string, body: Json | undefined, listed: number): string[] {
  const count = isJsonObject(body) ? body.count : undefined;
  if (typeof count !== 'number') return [`${asked}: the answer carries no count`];
  return count === listed ? [] : [`${asked}: count ${count}, but the list holds ${listed} records`];
}

/** Problems of an answer to `fields=named`: a record with another attribute than those and `keeps`. */
export function projectionProblems(
  records: readonly JsonObject[],
  named: readonly string[],
  keeps: string,
): string[] {
  const allowed = new Set([...named, keeps]);
  for (const [index, record] of records.entries()) {
    const extra = Object.keys(record).filter((key) => !allowed.has(key));
    if (extra.length > 0)
      return [`fields=${named.join(',')} answered record ${index} with ${extra.slice(0, 5).join(', ')} too`];
  }
  return [];
}

/** Problems of an answer to `embed=member`: a record without it. */
export function embedProblems(records: readonly JsonObject[], member: string): string[] {
  const index = records.findIndex((record) => record[member] === undefined);
  return index >= 0 ? [`embed=${member} answered record ${index} without ${member}`] : [];
}

/** Problems of the rows of a period `start`–`end`: a row dated (by one of `datedBy`) outside it. */
export function periodProblems(
  rows: readonly JsonObject[],
  datedBy: readonly string[],
  start: string,
  end: string,
): string[] {
  for (const [index, row] of rows.entries())
    for (const attribute of datedBy) {
      const day = kstDay(row[attribute]);
      if (day !== undefined && (day < start || day > end))
        return [
          `the period ${start}–${end} answered row ${index} with ${attribute} ${String(row[attribute])}`,
        ];
    }
  return [];
}

/** The days (Korean time) the rows are dated by, in order of first appearance. */
export function datedDays(rows: readonly JsonObject[], datedBy: readonly string[]): string[] {
  const days = rows.flatMap((row) => datedBy.flatMap((attribute) => kstDay(row[attribute]) ?? []));
  return [...new Set(days)];
}
