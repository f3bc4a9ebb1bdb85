// What a failed `verify` says: how many matched against how many were expected, then the few
// received requests closest to the expectation (or the requests created more than once, or the
// mall's latest deliveries), never the whole journal.
import type { JournalEntry, JournalFilter } from '@mall-api/mall-state';

/** How many of the closest entries a failure lists. */
export const closestShown = 5;

type Compared = 'api' | 'method' | 'path' | 'operationId' | 'status';
const compared: readonly Compared[] = ['api', 'method', 'path', 'operationId', 'status'];

/** The filter fields an entry does not match, as `field: received ≠ wanted`. */
function differences(entry: JournalEntry, filter: JournalFilter): string[] {
  return compared.flatMap((field) => {
    const wanted = field === 'method' ? filter.method?.toUpperCase() : filter[field];
    return wanted === undefined || entry[field] === wanted ? [] : [`${field} ${entry[field]} ≠ ${wanted}`];
  });
}

const describe = (entry: JournalEntry, diff: readonly string[]) =>
  `  #${entry.sequence} ${entry.method} ${entry.path} → ${entry.status} (${entry.operationId ?? 'no operation'})${diff.length > 0 ? `: ${diff.join(', ')}` : ''}`;

/**
 * The message of a failed expectation.
 * @param matching how many entries matched the filter
 * @param received every entry of the mall (after `filter.after`, when given)
 */
export function verifyFailure(
  mallId: string,
  filter: JournalFilter,
  times: number | undefined,
  matching: number,
  received: readonly JournalEntry[],
): string {
  const wanted = `${times === undefined ? 'at least one' : `exactly ${times}`} request(s) matching ${JSON.stringify(filter)}`;
  const ranked = received
    .filter((entry) => filter.after === undefined || entry.sequence > filter.after)
    .map((entry) => ({ entry, diff: differences(entry, filter) }))
    .sort((a, b) => a.diff.length - b.diff.length || b.entry.sequence - a.entry.sequence);
  const shown = ranked.slice(0, closestShown).map(({ entry, diff }) => describe(entry, diff));
  const more = ranked.length - shown.length;
  const list = shown.length > 0 ? shown.join('\n') : '  (nothing)';
  return `Expected ${wanted} at mall ${mallId}, found ${matching}. The closest of the ${ranked.length} request(s) the mall received:\n${list}${more > 0 ? `\n  … and ${more} more` : ''}`;
}

/** A request created more than once, as the control API reports it. */
interface CreatedAgain {
  readonly operationId: string;
  readonly path: string;
  readonly body?: unknown;
  readonly sequences: readonly number[];
}

/**
 * The message of a failed duplicates expectation.
 * @param found the duplicates the mall's creates in range hold, and the requests created more than once
 */
export function duplicatesFailure(
  mallId: string,
  filter: object,
  expected: number,
  found: { readonly duplicates: number; readonly groups: readonly CreatedAgain[] },
): string {
  const shown = found.groups
    .slice(0, closestShown)
    .map(
      (group) =>
        `  ${group.operationId} ${group.path} created ${group.sequences.length} times (#${group.sequences.join(', #')}) with body ${JSON.stringify(group.body)}`,
    );
  const more = found.groups.length - shown.length;
  const list = shown.length > 0 ? shown.join('\n') : '  (no request was created more than once)';
  return `Expected ${expected} duplicate create(s) at mall ${mallId}${Object.keys(filter).length > 0 ? ` among ${JSON.stringify(filter)}` : ''}, found ${found.duplicates}:\n${list}${more > 0 ? `\n  … and ${more} more` : ''}`;
}

/** A delivery attempt, as the control API lists it. */
interface LoggedDelivery {
  readonly log_id: string;
  readonly log_type?: string;
  readonly event_no?: number;
  readonly success?: string;
  readonly response_http_code?: number | null;
  readonly request_endpoint?: string;
}

/**
 * The message of a failed deliveries expectation.
 * @param matching how many deliveries matched the filter
 * @param logged every delivery of the mall, oldest first
 */
export function deliveriesFailure(
  mallId: string,
  filter: object,
  count: number,
  matching: number,
  logged: readonly LoggedDelivery[],
): string {
  const shown = logged
    .slice(-closestShown)
    .reverse()
    .map(
      (entry) =>
        `  log ${entry.log_id}: event ${entry.event_no} (${entry.log_type}) to ${entry.request_endpoint} → ${entry.response_http_code ?? 'no answer'}, success ${entry.success}`,
    );
  const more = logged.length - shown.length;
  const list = shown.length > 0 ? shown.join('\n') : '  (nothing)';
  return `Expected exactly ${count} delivery(ies) matching ${JSON.stringify(filter)} at mall ${mallId}, found ${matching}. The latest of the ${logged.length} delivery(ies) of the mall:\n${list}${more > 0 ? `\n  … and ${more} more` : ''}`;
}
