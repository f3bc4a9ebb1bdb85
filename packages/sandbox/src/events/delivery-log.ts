// A mall's delivery log (`delivery` table): one entry per attempt to deliver an event, and one per
// event the outbox discarded past its capacity (a failed delivery with no answer), keeping the
// latest `logCapacity` entries the spec declares (`x-webhook-delivery`), oldest first.
import type { SandboxStore } from '@mall-api/mall-state';
import type { ClaimedEvent, DeliveryAttempt, DeliveryLogEntry } from '../protocol.js';
import { kstDateTime } from '../support/kst-time.js';

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
