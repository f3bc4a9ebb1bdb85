// The control API's coverage task (`createCoverageReport`): the report (coverage-report.ts) over the
// journal entries of the malls asked for inside the time range, in the format asked for
// (coverage-formats.ts). An operation id or rule name the served specs lack is a 422 naming its key.
import type { Journal, JournalEntry } from '@mall-api/mall-state';
import { type ApiName, type ApiSpecs, apiNames } from '@mall-api/spec-model';
import type { components } from '@mall-api/specs/types/control';
import { operationViolation } from '../control/control-rules.js';
import type { Violation } from '../http/error-envelope.js';
import { type Reply, violationsReply } from '../pipeline/reply.js';
import { requestRulesOf } from '../validation/request-rules.js';
import { type CoverageFormat, coverageMediaTypes, formatCoverage } from './coverage-formats.js';
import { coverageReport } from './coverage-report.js';

/** A coverage request as the control document describes it. */
export type CoverageRequest = components['schemas']['CoverageRequest'];

/** The first unknown operation id or rule name of a request, as a violation. */
function unknownNames(specs: ApiSpecs, request: CoverageRequest): Violation | undefined {
  for (const operationId of request.operationIds ?? []) {
    const unknown = operationViolation(specs, request.api, operationId, 'operationIds');
    if (unknown) return unknown;
  }
  const apis: readonly ApiName[] = request.api === undefined ? apiNames : [request.api];
  const known = new Set(apis.flatMap((api) => requestRulesOf(specs[api]).map(({ rule }) => rule)));
  const rule = request.rules?.find((name) => !known.has(name));
  return rule === undefined
    ? undefined
    : { location: 'body', name: 'rules', message: `${rule} is not a request rule of the APIs served` };
}

/** Whether an entry arrived inside [from, to). */
const inRange = (entry: JournalEntry, from: number, to: number) => {
  const at = Date.parse(entry.receivedAt);
  return at >= from && at < to;
};

/**
 * Answers a coverage request.
 * @param specs the spec of every API served
 */
export async function coverageTask(
  journal: Journal,
  specs: ApiSpecs,
  request: CoverageRequest,
): Promise<Reply> {
  const unknown = unknownNames(specs, request);
  if (unknown) return violationsReply([unknown]);
  const from = request.from === undefined ? Number.NEGATIVE_INFINITY : Date.parse(request.from);
  const to = request.to === undefined ? Number.POSITIVE_INFINITY : Date.parse(request.to);
  const entries = (await Promise.all(request.malls.map((mallId) => journal.entries(mallId)))).flatMap(
    (mallEntries) => mallEntries.filter((entry) => inRange(entry, from, to)),
  );
  const report = coverageReport(specs, entries, request);
  const format: CoverageFormat = request.format ?? 'json';
  return {
    status: 200,
    headers: { 'content-type': coverageMediaTypes[format] },
    body: formatCoverage(report, format),
  };
}
