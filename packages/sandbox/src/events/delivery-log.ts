// A mall's delivery log (`delivery` table): one entry per attempt to deliver an event, and one per
// event the outbox discarded past its capacity (a failed delivery with no answer), keeping the
// latest `logCapacity` entries the spec declares (`x-webhook-delivery`), oldest first; and the page
// `listWebhookLogs` answers, by the meanings its parameters declare (`x-query`), none named here.
import type { SandboxStore } from '@mall-api/mall-state';
import type { QueryMeaning } from '@mall-api/spec-model';
import type { ClaimedEvent, DeliveryAttempt, DeliveryLogEntry } from '../protocol.js';
import { kstDateTime } from '../support/kst-time.js';
import { declaredMatcher } from '../views/declared-filters.js';

/** Adds an attempt to the log, dropping the oldest entries beyond `logCapacity`. */
export function logAttempt(
  store: SandboxStore,
  mallId: string,
  logCapacity: number,
  claimed: Pick<ClaimedEvent, 'eventNo' | 'body' | 'traceId' | 'logType'>,
  attempt: DeliveryAttempt,
): DeliveryLogEntry {
  const entry: DeliveryLogEntry = {
    log_id: String(store.nextNumber('delivery_log', 0)),
    log_type: claimed.logType,
    event_no: claimed.eventNo,
    mall_id: mallId,
    trace_id: claimed.traceId,
    requested_time: kstDateTime(attempt.requestedAt),
    request_endpoint: attempt.endpoint,
    request_body: claimed.body,
    success: attempt.success ? 'T' : 'F',
    response_http_code: attempt.status,
    response_body: attempt.responseBody,
  };
  store.put('delivery', entry.log_id.padStart(12, '0'), entry);
  const excess = store.size('delivery') - logCapacity;
  if (excess > 0)
    for (const [key] of store.entries('delivery').slice(0, excess)) store.delete('delivery', key);
  return entry;
}

/** The delivery log, oldest first. */
export function deliveryLog(store: SandboxStore): DeliveryLogEntry[] {
  return store.all('delivery') as DeliveryLogEntry[];
}

/** The log entries `query` selects (its filters, then `page-after` and `page-size`), oldest first. */
export function logPage(
  entries: readonly DeliveryLogEntry[],
  meanings: readonly QueryMeaning[],
  query: Readonly<Record<string, unknown>>,
): DeliveryLogEntry[] {
  let selected = entries.filter(declaredMatcher<DeliveryLogEntry>(meanings, query));
  for (const meaning of meanings) {
    const value = query[meaning.name];
    if (value === undefined) continue;
    if (meaning.role === 'page-after') {
      const field = meaning.field as keyof DeliveryLogEntry;
      const at = selected.findIndex((entry) => String(entry[field]) === String(value));
      selected = at < 0 ? [] : selected.slice(at + 1);
    }
  }
  const size = meanings.find((meaning) => meaning.role === 'page-size');
  const limit = size ? query[size.name] : undefined;
  return typeof limit === 'number' ? selected.slice(0, limit) : selected;
}
