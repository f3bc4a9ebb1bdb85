// What a failed `verify` says: how many matched against how many were expected, then the few
// received requests closest to the expectation (or the requests created more than once, or the
// mall's latest deliveries), never the whole journal.
import type { JournalEntry, JournalFilter } from '@mall-api/mall-state';
import type { components } from '@mall-api/specs/types/control';

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

/** The first few of `lines`, then how many more there are; `empty` when there are none. */
function listed(lines: readonly string[], empty: string): string {
  const more = lines.length - closestShown;
  return `${lines.length > 0 ? lines.slice(0, closestShown).join('\n') : empty}${more > 0 ? `\n  … and ${more} more` : ''}`;
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
  const list = listed(
    ranked.map(({ entry, diff }) => describe(entry, diff)),
    '  (nothing)',
  );
  return `Expected ${wanted} at mall ${mallId}, found ${matching}. The closest of the ${ranked.length} request(s) the mall received:\n${list}`;
}

/**
 * The message of a failed duplicates expectation.
 * @param found the duplicates the mall's creates in range hold, and the requests created more than once
 */
export function duplicatesFailure(
  mallId: string,
  filter: object,
  expected: number,
  found: components['schemas']['Duplicates'],
): string {
  const list = listed(
    found.groups.map(
      (group) =>
        `  ${group.operationId} ${group.path} created ${group.sequences.length} times (#${group.sequences.join(', #')}) with body ${JSON.stringify(group.body)}`,
    ),
    '  (no request was created more than once)',
  );
  return `Expected ${expected} duplicate create(s) at mall ${mallId}${Object.keys(filter).length > 0 ? ` among ${JSON.stringify(filter)}` : ''}, found ${found.duplicates}:\n${list}`;
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
  logged: readonly components['schemas']['WebhookLog'][],
): string {
  const list = listed(
    [...logged]
      .reverse()
      .map(
        (entry) =>
          `  log ${entry.log_id}: event ${entry.event_no} (${entry.log_type}) to ${entry.request_endpoint} → ${entry.response_http_code ?? 'no answer'}, success ${entry.success}`,
      ),
    '  (nothing)',
  );
  return `Expected exactly ${count} delivery(ies) matching ${JSON.stringify(filter)} at mall ${mallId}, found ${matching}. The latest of the ${logged.length} delivery(ies) of the mall:\n${list}`;
}
