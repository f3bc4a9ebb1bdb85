// The delivery side of one mall's outbox, as functions over its store inside the caller's
// transaction: the events due, claiming them for one dispatcher under a lease (on a shared store
// the claim is a write under the mall's lock, so one replica delivers), settling an attempt, and
// resends and test sends. Sending and retry timing are the dispatcher's (mock server); no HTTP here.
import type { SandboxStore } from '@mall-api/mall-state';
import type { ClaimedEvent, DeliveryAttempt, DeliveryLogEntry } from '../protocol.js';
import { logAttempt } from './delivery-log.js';
import { eventKey, type OutboxOf, type PendingEvent, recordEvent } from './event-outbox.js';

/** The events waiting, in commit order. */
const pending = (store: SandboxStore): PendingEvent[] =>
  (store.all('event') as PendingEvent[]).sort((a, b) => a.seq - b.seq);

/** Whether `event` may be claimed at `now`: due, and no live lease on it. */
const claimable = (event: PendingEvent, now: number) =>
  event.due <= now && (event.claim === null || event.claim.until <= now);

/** The earliest time an event waiting may be claimed (undefined: none waits). */
export function nextDue(store: SandboxStore): number | undefined {
  const times = pending(store).map((event) => Math.max(event.due, event.claim?.until ?? 0));
  return times.length === 0 ? undefined : Math.min(...times);
}

/** Whether an event may be claimed at `now` (a read: nothing is written). */
export function hasDue(store: SandboxStore, now: number): boolean {
  return pending(store).some((event) => claimable(event, now));
}

/**
 * Claims the first `max` events due at `now` (commit order) for `owner` until `now + leaseMs`,
 * counting an attempt for each; none when none is due. A retried normal event is logged as a
 * resend (R).
 */
export function claimEvents(
  store: SandboxStore,
  owner: string,
  now: number,
  leaseMs: number,
  max: number,
): ClaimedEvent[] {
  const due = pending(store)
    .filter((candidate) => claimable(candidate, now))
    .slice(0, max);
  return due.map((event) => {
    const attempt = event.attempts + 1;
    store.put('event', eventKey(event.seq), {
      ...event,
      attempts: attempt,
      claim: { owner, until: now + leaseMs },
    });
    return {
      seq: event.seq,
      eventNo: event.event_no,
      body: event.body,
      traceId: event.trace_id,
      attempt,
      logType: event.log_type === 'G' && attempt > 1 ? 'R' : event.log_type,
      owner,
    };
  });
}

/**
 * Logs an attempt and settles its event: done when it succeeded or `retryAt` is undefined, else
 * due again at `retryAt`. An event whose lease another dispatcher took over meanwhile is left to
 * it (the attempt is logged all the same: it was made).
 */
export function settleEvent(
  store: SandboxStore,
  outbox: OutboxOf,
  claimed: ClaimedEvent,
  attempt: DeliveryAttempt,
  retryAt: number | undefined,
): DeliveryLogEntry {
  const entry = logAttempt(store, outbox.mallId, outbox.policy.logCapacity, claimed, attempt);
  const key = eventKey(claimed.seq);
  const event = store.get<PendingEvent>('event', key);
  if (event?.claim?.owner === claimed.owner) {
    if (attempt.success || retryAt === undefined) store.delete('event', key);
    else store.put('event', key, { ...event, due: retryAt, claim: null });
  }
  return entry;
}

/** Puts a logged delivery's event in the outbox again, as a resend (R); false when no entry has `logId`. */
export function resendLogged(store: SandboxStore, outbox: OutboxOf, logId: string): boolean {
  const entry = store.get<DeliveryLogEntry>('delivery', logId.padStart(12, '0'));
  if (!entry) return false;
  recordEvent(store, outbox, { eventNo: entry.event_no, body: entry.request_body, logType: 'R' });
  return true;
}

/** Puts a test send (T) of `body`, an event's sample, in the outbox. */
export function recordTestEvent(
  store: SandboxStore,
  outbox: OutboxOf,
  eventNo: number,
  body: unknown,
): boolean {
  recordEvent(store, outbox, { eventNo, body: JSON.stringify(body), logType: 'T' });
  return true;
}
