// How one analytics report is computed from simulated visits by its table entry: the records it
// counts, how they group into rows, what each row adds up (sums or distinct counts), which rows are
// kept, the default sort (with aliases for sort keys that name no field), then `sort`/`order`,
// `limit`/`offset` from the query, and rates and averages as two-decimal strings.

import type { SimulatedVisit } from '../simulation/analytics-simulation.js';
import { page } from './list-query.js';

/** The query parameters of the analytics operations, converted by the front layer. */
export interface AnalyticsQuery {
  readonly mall_id?: string;
  readonly shop_no?: number;
  readonly start_date?: string;
  readonly end_date?: string;
  readonly device_type?: string;
  readonly format_type?: string;
  readonly sort?: string;
  readonly order?: string;
  readonly limit?: number;
  readonly offset?: number;
  readonly orderId?: string;
}

/** One record of a report's response. */
export type Row = Record<string, string | number>;

/** What a row adds up over its records: a sum, or the number of distinct defined values. */
export type Measure<R> = ((record: R) => number) | { readonly distinct: (record: R) => string | undefined };

/** Totals of the whole selection a row may relate to (shares of all visits). */
export interface ReportContext {
  readonly visits: number;
}

/** How a report groups records into rows. */
export interface Grouping<R> {
  /** The row of a record, or undefined to leave the record out. */
  readonly key: (record: R) => string | number | undefined;
  /** The identifying fields of the row a record starts. */
  readonly fields: (record: R) => Row;
}

/** The table entry of one report. */
export interface ReportDefinition<R, M extends string> {
  /** The key the records arrive under. */
  readonly key: string;
  /** The records the report counts among the visits of one day. */
  readonly records: (visits: readonly SimulatedVisit[], query: AnalyticsQuery) => readonly R[];
  /** How records group into rows; absent: one row over every record, even with none. */
  readonly grouping?: (query: AnalyticsQuery) => Grouping<R>;
  readonly measures: { readonly [name in M]: Measure<R> };
  /** The counted fields of a row from its totals. */
  readonly row: (totals: { readonly [name in M]: number }, context: ReportContext) => Row;
  /** Rows kept (default: all). */
  readonly keep?: (totals: { readonly [name in M]: number }) => boolean;
  /** Default sort key and order; absent for reports without `sort`, `order` and `offset`. */
  readonly sort?: {
    readonly key: string;
    readonly order: 'asc' | 'desc';
    /** Sort keys of the spec that name another field of the row. */
    readonly aliases?: Readonly<Record<string, string>>;
  };
  /** Fields written as decimal strings with two decimals (after sorting on their numbers). */
  readonly decimals?: readonly string[];
}

/** A report ready to answer: its key, and its rows for a query. */
export interface AnalyticsReport {
  readonly key: string;
  /** The rows over the visits of the query's days (one array per day), sorted and paged. */
  rows(days: Iterable<readonly SimulatedVisit[]>, query: AnalyticsQuery): Row[];
}

/** Default `limit` of every analytics list. */
const defaultLimit = 100;

/** `part` as a percentage of `whole` (0 when `whole` is 0). */
export const percent = (part: number, whole: number): number => (whole === 0 ? 0 : (part * 100) / whole);
/** `amount / count` (0 when `count` is 0). */
export const average = (amount: number, count: number): number => (count === 0 ? 0 : amount / count);

/** Rows ordered by `field`, numbers as numbers and text by code unit; ties keep their order. */
function sortRows(rows: Row[], field: string, descending: boolean): Row[] {
  const direction = descending ? -1 : 1;
  return rows.sort((a, b) => {
    const [x, y] = [a[field], b[field]];
    if (typeof x === 'number' && typeof y === 'number') return direction * (x - y);
    const [s, t] = [String(x ?? ''), String(y ?? '')];
    return direction * (s < t ? -1 : s > t ? 1 : 0);
  });
}

/** Builds a report from its table entry. */
export function defineReport<R, M extends string>(definition: ReportDefinition<R, M>): AnalyticsReport {
  const measures = Object.entries(definition.measures) as [M, Measure<R>][];
  return {
    key: definition.key,
    rows(days, query) {
      const grouping = definition.grouping?.(query);
      const groups = new Map<
        string | number,
        { fields: Row; sums: number[]; sets: (Set<string> | undefined)[] }
      >();
      const start = (fields: Row) => ({
        fields,
        sums: measures.map(() => 0),
        sets: measures.map(([, measure]) => (typeof measure === 'function' ? undefined : new Set<string>())),
      });
      if (!grouping) groups.set('', start({}));
      let visitCount = 0;
      for (const visits of days) {
        visitCount += visits.length;
        for (const record of definition.records(visits, query)) {
          const key = grouping ? grouping.key(record) : '';
          if (key === undefined) continue;
          let group = groups.get(key);
          if (!group) {
            group = start((grouping as Grouping<R>).fields(record));
            groups.set(key, group);
          }
          for (let i = 0; i < measures.length; i++) {
            const measure = (measures[i] as [M, Measure<R>])[1];
            if (typeof measure === 'function') group.sums[i] = (group.sums[i] ?? 0) + measure(record);
            else {
              const value = measure.distinct(record);
              if (value !== undefined) group.sets[i]?.add(value);
            }
          }
        }
      }
      const context: ReportContext = { visits: visitCount };
      let rows: Row[] = [];
      for (const { fields, sums, sets } of groups.values()) {
        const totals = Object.fromEntries(
          measures.map(([name], i) => [name, sets[i]?.size ?? sums[i] ?? 0]),
        ) as { [name in M]: number };
        if (definition.keep && !definition.keep(totals)) continue;
        rows.push({ ...fields, ...definition.row(totals, context) });
      }
      if (definition.sort) {
        const asked = query.sort ?? definition.sort.key;
        const descending = (query.order ?? definition.sort.order) === 'desc';
        rows = page(
          sortRows(rows, definition.sort.aliases?.[asked] ?? asked, descending),
          query,
          defaultLimit,
        );
      } else rows = rows.slice(0, query.limit ?? defaultLimit);
      for (const field of definition.decimals ?? [])
        for (const row of rows)
          if (typeof row[field] === 'number') row[field] = (row[field] as number).toFixed(2);
      return rows;
    },
  };
}
