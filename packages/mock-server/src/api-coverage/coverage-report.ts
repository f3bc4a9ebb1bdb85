// What an app's calls exercised of the APIs, from journal entries against the served specs: each
// operation called, each documented response answered (by exact status, class such as `4XX`, or
// `default`) and each request rule that refused a call; undocumented statuses apart. Optional
// minimum percentages pass or fail the report. Reading the journal is the control handlers';
// rendering is coverage-formats.ts'.
import type { JournalEntry } from '@mall-api/mall-state';
import { type ApiName, type ApiSpecs, apiNames, type OperationEntry } from '@mall-api/spec-model';
import type { components } from '@mall-api/specs/types/control';
import { type RequestRule, requestRulesOf } from '../validation/request-rules.js';

/** A report as the control document describes it (its measures' items loosely typed). */
type Report = components['schemas']['CoverageReport'];

/** The three measures a report gives and a threshold may ask of. */
export const coverageMeasures = ['operations', 'responses', 'rules'] as const;
/** One of {@link coverageMeasures}. */
export type CoverageMeasure = (typeof coverageMeasures)[number];

/**
 * What a report covers and what it must reach: the malls named in it, only one API, operations or
 * rules (default: all), and the lowest percentage of each measure that passes.
 */
export type CoverageScope = Partial<
  Pick<components['schemas']['CoverageRequest'], 'malls' | 'api' | 'operationIds' | 'rules' | 'minimum'>
>;

/** An operation and how often it was called. */
export interface OperationCoverage {
  readonly api: string;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly calls: number;
}

/** A documented response of an operation and how many answers it covered. */
export interface ResponseCoverage {
  readonly api: string;
  readonly operationId: string;
  /** The response's key as the spec writes it (`200`, `4XX`, `default`). */
  readonly status: string;
  readonly answers: number;
}

/** A request rule (its operation null for a rule of every call, the rate limit) and how many calls it refused. */
export interface RuleCoverage extends RequestRule {
  readonly api: string;
  readonly refusals: number;
}

/** A status an operation answered with that none of its documented responses covers. */
export type UndocumentedStatus = Readonly<Report['undocumented'][number]>;

/** One measure: how many items are documented, how many were exercised (in percent too), and the items. */
export interface Measure<Item> extends Readonly<Omit<components['schemas']['CoverageMeasure'], 'items'>> {
  readonly items: readonly Item[];
}

/** A minimum a report was held to. */
export type Threshold = Readonly<Report['thresholds'][number]>;

/** What the calls exercised: the control document's report, each measure's items typed. */
export interface CoverageReport extends Readonly<Omit<Report, 'operations' | 'responses' | 'rules'>> {
  readonly operations: Measure<OperationCoverage>;
  readonly responses: Measure<ResponseCoverage>;
  readonly rules: Measure<RuleCoverage>;
}

/** The documented response an answer's status falls under: exact, its class (`4XX`), else `default`. */
export function documentedResponse(operation: OperationEntry, status: number): string | undefined {
  const codes = operation.responseCodes;
  const exact = String(status);
  const range = `${exact[0]}XX`;
  return (
    codes.find((code) => code === exact) ??
    codes.find((code) => code.toUpperCase() === range) ??
    codes.find((code) => code === 'default')
  );
}

/** A measure of `items`, exercised when `count` is above 0. */
function measure<Item>(items: Item[], count: (item: Item) => number): Measure<Item> {
  const exercised = items.filter((item) => count(item) > 0).length;
  const percent = items.length === 0 ? 100 : Math.round((exercised / items.length) * 1000) / 10;
  return { documented: items.length, exercised, percent, items };
}

/** Adds one to the count under `key`. */
const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

/**
 * The coverage of `entries` (journal entries of one or more malls) against the specs.
 * @param specs the spec of every API served
 */
export function coverageReport(
  specs: ApiSpecs,
  entries: readonly JournalEntry[],
  scope: CoverageScope = {},
): CoverageReport {
  const apis = scope.api === undefined ? apiNames : [scope.api];
  const onlyOperations = scope.operationIds && new Set(scope.operationIds);
  const onlyRules = scope.rules && new Set(scope.rules);
  const counted = entries.filter(
    (entry) =>
      (apis as readonly string[]).includes(entry.api) &&
      (!onlyOperations || (entry.operationId !== null && onlyOperations.has(entry.operationId))),
  );
  const calls = new Map<string, number>();
  const answers = new Map<string, number>();
  const refusals = new Map<string, number>();
  const unmatched = new Map<string, number>();
  for (const entry of counted) {
    const operation =
      entry.operationId === null ? undefined : specs[entry.api as ApiName]?.operation(entry.operationId);
    for (const rule of entry.refusedBy ?? [])
      bump(refusals, `${entry.api} ${rule === 'rate-limit' ? '' : (entry.operationId ?? '')} ${rule}`);
    if (!operation) continue;
    const key = `${entry.api} ${operation.operationId}`;
    bump(calls, key);
    const response = documentedResponse(operation, entry.status);
    bump(response === undefined ? unmatched : answers, `${key} ${response ?? entry.status}`);
  }
  const operations = apis.flatMap((api) =>
    specs[api].operations
      .filter(({ operationId }) => !onlyOperations || onlyOperations.has(operationId))
      .map((operation) => ({ api, operation })),
  );
  const rules = apis.flatMap((api) =>
    requestRulesOf(specs[api])
      .filter(
        ({ operationId, rule }) =>
          // The rate limit is a rule of an API with an operation in scope.
          (operationId === null
            ? operations.some((scoped) => scoped.api === api)
            : !onlyOperations || onlyOperations.has(operationId)) &&
          (!onlyRules || onlyRules.has(rule)),
      )
      .map((rule) => ({
        api,
        ...rule,
        refusals: refusals.get(`${api} ${rule.operationId ?? ''} ${rule.rule}`) ?? 0,
      })),
  );
  const report = {
    malls: scope.malls ?? [],
    requests: counted.length,
    operations: measure(
      operations.map(({ api, operation: { operationId, method, pathTemplate } }) => ({
        api,
        operationId,
        method: method.toUpperCase(),
        path: pathTemplate,
        calls: calls.get(`${api} ${operationId}`) ?? 0,
      })),
      (item) => item.calls,
    ),
    responses: measure(
      operations.flatMap(({ api, operation: { operationId, responseCodes } }) =>
        responseCodes.map((status) => ({
          api,
          operationId,
          status,
          answers: answers.get(`${api} ${operationId} ${status}`) ?? 0,
        })),
      ),
      (item) => item.answers,
    ),
    rules: measure(rules, (item) => item.refusals),
    undocumented: [...unmatched].map(([key, count]) => {
      const [api = '', operationId = '', status = ''] = key.split(' ');
      return { api, operationId, status: Number(status), answers: count };
    }),
  };
  const thresholds = coverageMeasures.flatMap((name) => {
    const minimum = scope.minimum?.[name];
    if (minimum === undefined) return [];
    const { percent } = report[name];
    return [{ measure: name, minimum, percent, passed: percent >= minimum }];
  });
  return { ...report, thresholds, passed: thresholds.every((threshold) => threshold.passed) };
}
