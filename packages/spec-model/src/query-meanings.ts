// The meaning of every query parameter as the specs declare it in `x-query` (specs/README.md,
// "Query parameter meanings"): its role (a filter, paging, sorting, projection, embedding, the shop
// or mall it reads, the statistics period, …) and, for a filter, the record field it selects on and
// how it compares. The sandbox's list and count operations, the conformance runner and the docs
// read the meanings through `queryMeaningsOf`; applying them to records is the caller's
// (`recordValues` walks a field path, the one reading of the path syntax).
import { isJsonObject, type Json, type JsonObject } from './json-document.js';
import type { OperationEntry } from './operation-index.js';

/** How a filter compares the parameter's value (each item of a comma list, OR) with the field. */
export const filterMatches = [
  /** Equal, case-sensitive (numbers compared as numbers when the parameter is numeric). */
  'equals',
  /** Equal ignoring case. */
  'equals-ci',
  /** Both read as decimal numbers and equal (`1.5` equals `1.50`). */
  'equals-number',
  /** The field contains the value, ignoring case. */
  'contains-ci',
  /** The field is at least the value (inclusive). */
  'min',
  /** The field is at most the value (inclusive). */
  'max',
  /** The field's date-time is on or after the start of the day the value names (KST). */
  'date-from',
  /** The field's date-time is on or before the end of the day the value names (KST). */
  'date-to',
  /** `T`/`true` selects records whose field is `T`/`true`; `F`/`false` the others. */
  'flag',
  /** The field is a list holding the value. */
  'has-any',
  /** The field is a list holding the value, ignoring case. */
  'has-any-ci',
  /** The field is above the value (exclusive). */
  'greater-than',
  /** `T`/`true`: the field is an empty list (or absent); `F`/`false`: it is not. */
  'empty',
  /** `T`/`true`: the field is a non-empty list; `F`/`false`: it is empty (or absent). */
  'non-empty',
  /** An item `<attribute>:<value>`: the record's `attribute` (one of `attributes`) equals or holds the value. */
  'attribute-value',
  /** An item `<key>:<value>`: one entry of the list `field` has `key` and `value` equal to them. */
  'key-value',
] as const;

/** A filter comparison. */
export type FilterMatch = (typeof filterMatches)[number];

/** The roles a query parameter can have. */
export const queryRoles = [
  'filter',
  'modifier',
  'subset',
  'page-size',
  'page-offset',
  'page-after',
  'sort',
  'order',
  'projection',
  'embed',
  'shop',
  'mall',
  'period-start',
  'period-end',
  'granularity',
  'authorization',
] as const;

/** A query parameter's role. */
export type QueryRole = (typeof queryRoles)[number];

/** Where a meaning's fact comes from; absent in the control API (our own design). */
export type QueryProvenance = 'seed' | 'reference' | 'inferred' | undefined;

interface MeaningBase {
  /** The parameter's name. */
  readonly name: string;
  /** A comma list: its items are OR conditions. */
  readonly list: boolean;
  readonly provenance: QueryProvenance;
}

/** A parameter that selects records by one of their fields. */
export interface FilterMeaning extends MeaningBase {
  readonly role: 'filter';
  /**
   * The field path in the answered record: names joined by `.`, `name[]` for any item of a list,
   * `*` for any value of an object; empty for `attribute-value` (the item names the attribute).
   */
  readonly field: string;
  readonly match: FilterMatch;
  /** `attribute-value`: the attributes an item may name. */
  readonly attributes?: readonly string[];
  /** `key-value`: the names of an entry's key and value. */
  readonly entry?: { readonly key: string; readonly value: string };
}

/** A parameter that changes how another filter (`of`) matches. */
export interface ModifierMeaning extends MeaningBase {
  readonly role: 'modifier';
  readonly of: string;
  /** `include-descendants`: with `T`, the filter also matches the descendants of what it names. */
  readonly effect: 'include-descendants';
}

/** A parameter that selects by a property the answered records do not carry. */
export interface SubsetMeaning extends MeaningBase {
  readonly role: 'subset';
  /** What it selects by: `display-section`, `bundle`, `device`. */
  readonly by: string;
}

/** `fields=`: only the named attributes, plus `keeps` (the id). */
export interface ProjectionMeaning extends MeaningBase {
  readonly role: 'projection';
  readonly keeps: string;
}

/** A cursor: the records after the one whose `field` equals the value, in the answer's order. */
export interface PageAfterMeaning extends MeaningBase {
  readonly role: 'page-after';
  readonly field: string;
}

/** The statistics period's first or last day; rows carrying one of `datedBy` fall inside it. */
export interface PeriodMeaning extends MeaningBase {
  readonly role: 'period-start' | 'period-end';
  readonly datedBy: readonly string[];
}

/** A role that needs nothing more: paging, sorting, embedding, shop, mall, granularity, OAuth. */
export interface PlainMeaning extends MeaningBase {
  readonly role: Exclude<
    QueryRole,
    'filter' | 'modifier' | 'subset' | 'projection' | 'page-after' | 'period-start' | 'period-end'
  >;
}

/** The declared meaning of one query parameter. */
export type QueryMeaning =
  | FilterMeaning
  | ModifierMeaning
  | SubsetMeaning
  | ProjectionMeaning
  | PageAfterMeaning
  | PeriodMeaning
  | PlainMeaning;

/** Why a declaration cannot be read (the lint reports the same). */
export class QueryMeaningError extends Error {
  readonly code = 'invalid_query_meaning';
}

const strings = (value: Json | undefined): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

const text = (rule: JsonObject, key: string, parameter: string): string => {
  const value = rule[key];
  if (typeof value !== 'string') throw new QueryMeaningError(`x-query of ${parameter} needs ${key}`);
  return value;
};

/** The meaning `x-query` declares for one parameter. */
function meaningOf(name: string, list: boolean, rule: JsonObject): QueryMeaning {
  const role = rule.role;
  if (typeof role !== 'string' || !(queryRoles as readonly string[]).includes(role))
    throw new QueryMeaningError(`x-query of ${name} has no known role`);
  const provenance = rule['x-provenance'] as QueryProvenance;
  const base = { name, list, provenance };
  const known = role as QueryRole;
  switch (known) {
    case 'filter': {
      const match = text(rule, 'match', name);
      if (!(filterMatches as readonly string[]).includes(match))
        throw new QueryMeaningError(`x-query of ${name} has an unknown match ${match}`);
      const field = match === 'attribute-value' ? '' : text(rule, 'field', name);
      return {
        ...base,
        role: 'filter',
        field,
        match: match as FilterMatch,
        ...(match === 'attribute-value' ? { attributes: strings(rule.attributes) } : {}),
        ...(match === 'key-value'
          ? { entry: { key: text(rule, 'key', name), value: text(rule, 'value', name) } }
          : {}),
      };
    }
    case 'modifier':
      return { ...base, role: known, of: text(rule, 'of', name), effect: 'include-descendants' };
    case 'subset':
      return { ...base, role: known, by: text(rule, 'by', name) };
    case 'projection':
      return { ...base, role: known, keeps: text(rule, 'keeps', name) };
    case 'page-after':
      return { ...base, role: known, field: text(rule, 'field', name) };
    case 'period-start':
    case 'period-end':
      return { ...base, role: known, datedBy: strings(rule['dated-by']) };
    default:
      return { ...base, role: known };
  }
}

/**
 * The declared meaning of each query parameter of `operation`, in parameter order. Throws a
 * `QueryMeaningError` for a query parameter without a readable `x-query` (the lint refuses such a
 * document, so a bundle that passed it always reads).
 */
export function queryMeaningsOf(operation: OperationEntry): QueryMeaning[] {
  return operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .map(({ name, schema, extensions }) => {
      const rule = extensions['x-query'];
      if (!isJsonObject(rule)) throw new QueryMeaningError(`${name} declares no x-query`);
      return meaningOf(name, schema.type === 'array', rule);
    });
}

/**
 * The query parameter of `operation` that names the mall whose data is read (`role: mall`), if it
 * has one: a client sends its credential's own mall there.
 */
export const mallParameterOf = (operation: OperationEntry): string | undefined =>
  queryMeaningsOf(operation).find((meaning) => meaning.role === 'mall')?.name;

/** The filters among `meanings`. */
export const filtersAmong = (meanings: readonly QueryMeaning[]): FilterMeaning[] =>
  meanings.filter((meaning): meaning is FilterMeaning => meaning.role === 'filter');

/**
 * A test of a field path over a record: whether any value the path reaches in `record` passes
 * `test` (`a.b`, `a[].b` for each item of list `a`, `a.*` for each value of object `a`; a missing
 * step reaches nothing, and a list reached last is one value, for a `has-any` field). Compiled once
 * per path, so testing many records allocates nothing.
 */
export function fieldTester(path: string): (record: unknown, test: (value: unknown) => boolean) => boolean {
  const steps = path.split('.').map((step) => {
    const each = step.endsWith('[]');
    return { key: each ? step.slice(0, -2) : step, each };
  });
  const [only] = steps;
  if (steps.length === 1 && only && !only.each && only.key !== '*') {
    // The common case, one attribute: read it without walking.
    const { key } = only;
    return (record, test) => {
      if (typeof record !== 'object' || record === null) return false;
      const value = (record as Record<string, unknown>)[key];
      return value !== undefined && test(value);
    };
  }
  const walk = (value: unknown, at: number, test: (value: unknown) => boolean): boolean => {
    const step = steps[at];
    if (step === undefined) return test(value);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const object = value as Record<string, unknown>;
    const next = (reached: unknown): boolean => {
      if (reached === undefined) return false;
      if (!step.each) return walk(reached, at + 1, test);
      return Array.isArray(reached) && reached.some((item) => walk(item, at + 1, test));
    };
    return step.key === '*' ? Object.values(object).some(next) : next(object[step.key]);
  };
  return (record, test) => walk(record, 0, test);
}

/** The values a field path reaches in `record` (as `fieldTester` walks it), in order. */
export function recordValues(record: unknown, path: string): unknown[] {
  const values: unknown[] = [];
  fieldTester(path)(record, (value) => {
    values.push(value);
    return false;
  });
  return values;
}
