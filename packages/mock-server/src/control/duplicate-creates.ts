// Duplicate creates in a mall's journal, what an app that blindly resends a create after a lost
// answer leaves behind (the control API's `getDuplicates` states the definition): a create is an
// entry answered 201 (a lost answer's included); two creates are the same request when their API,
// operation, path, query and body are the same, bodies compared as JSON whatever the order of their
// keys; every create of a request created before it is one duplicate. Not the journal's filter:
// the caller gives the entries in range.
import type { JournalEntry } from '@mall-api/mall-state';

/** The status of a create: a record was made. */
const createdStatus = 201;

/** One request created more than once: what it was and the journal entries of its creates. */
export interface DuplicateGroup {
  readonly api: string;
  readonly operationId: string;
  readonly path: string;
  readonly query: JournalEntry['query'];
  readonly body: unknown;
  readonly sequences: number[];
}

/** The duplicates among some creates, and the requests created more than once. */
export interface Duplicates {
  readonly duplicates: number;
  readonly groups: DuplicateGroup[];
}

/** A JSON value's text with every object's keys in order, so key order makes no difference. */
const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );

/** The duplicate creates among `entries` (oldest first); entries not answered 201 are not creates. */
export function duplicateCreates(entries: readonly JournalEntry[]): Duplicates {
  const byRequest = new Map<string, DuplicateGroup>();
  for (const entry of entries) {
    if (entry.status !== createdStatus || entry.operationId === null) continue;
    const { api, operationId, path, query, body } = entry;
    const request = canonicalJson([api, operationId, path, query, body]);
    const group = byRequest.get(request);
    if (group) group.sequences.push(entry.sequence);
    else byRequest.set(request, { api, operationId, path, query, body, sequences: [entry.sequence] });
  }
  const groups = [...byRequest.values()].filter((group) => group.sequences.length > 1);
  return {
    duplicates: groups.reduce((sum, group) => sum + group.sequences.length - 1, 0),
    groups,
  };
}
