// The outbox of one mall, kept in its own store and written in the write's transaction, so a
// refused write records nothing and a committed one cannot lose its event. `emittingEvents` wraps
// the admin handlers the spec's `x-emitted-by` names; past the spec's `outbox-capacity` the oldest
// event is discarded and logged as a failed delivery. Delivering is event-deliveries.ts's job.
import { randomUUID } from 'node:crypto';
import type { SandboxStore, StoredRecord } from '@mall-api/mall-state';
import { isJsonObject, type WebhookDelivery } from '@mall-api/spec-model';
import type { ReceptionStatus } from '../catalogue/webhook-setting.js';
import type { SandboxOutcome } from '../protocol.js';
import { type ShopCarrier, shopOf } from '../views/admin-view-state.js';
import { type AnyHandler, type HandlerMap, wrapEach } from '../views/handler-types.js';
import { logAttempt } from './delivery-log.js';
import type { EventSource } from './event-sources.js';
import { registeredReceiver } from './mall-receiver.js';

/** How a delivery came about: a normal one (G), a resend (R) or a test send (T). */
export type LogType = 'G' | 'R' | 'T';

/** An event waiting in the outbox. */
export interface PendingEvent extends StoredRecord {
  /** Its place in the mall's commit order. */
  readonly seq: number;
  readonly event_no: number;
  /** The JSON body delivered, as text (the log shows it as sent). */
  readonly body: string;
  /** One id for every attempt to deliver this event. */
  readonly trace_id: string;
  readonly log_type: LogType;
  /** Attempts made so far. */
  readonly attempts: number;
  /** Not delivered before this time (ms since the epoch; 0: at once). */
  readonly due: number;
  /** The dispatcher delivering it now, until its lease ends. */
  readonly claim: { readonly owner: string; readonly until: number } | null;
}

/** The outbox of one mall: its id and the capacities the spec declares. */
export interface OutboxOf {
  readonly mallId: string;
  readonly policy: Pick<WebhookDelivery, 'outboxCapacity' | 'logCapacity'>;
}

/** The store key of the event numbered `seq` (keys sort in commit order). */
export const eventKey = (seq: number): string => String(seq).padStart(12, '0');

/** Discards the oldest events past the outbox's capacity, each logged as a failed delivery. */
function discardOverflow(store: SandboxStore, outbox: OutboxOf): void {
  const over = store.size('event') - outbox.policy.outboxCapacity;
  if (over <= 0) return;
  const oldest = store.entries('event').sort(([a], [b]) => (a < b ? -1 : 1));
  const endpoint = registeredReceiver(store)?.url ?? '';
  for (const [key, record] of oldest.slice(0, over)) {
    const event = record as PendingEvent;
    const logType = event.log_type === 'G' && event.attempts > 0 ? 'R' : event.log_type;
    const claimed = { eventNo: event.event_no, body: event.body, traceId: event.trace_id, logType };
    // The wall clock, as the dispatcher's attempts are timed.
    const discard = { requestedAt: Date.now(), endpoint, success: false, status: null, responseBody: null };
    logAttempt(store, outbox.mallId, outbox.policy.logCapacity, claimed, discard);
    store.delete('event', key);
  }
}

/** Records an event in the mall's outbox (inside the caller's transaction); returns its number. */
export function recordEvent(
  store: SandboxStore,
  outbox: OutboxOf,
  event: { readonly eventNo: number; readonly body: string; readonly logType: LogType },
): number {
  const seq = store.nextNumber('event_seq', 0);
  const pending: PendingEvent = {
    seq,
    event_no: event.eventNo,
    body: event.body,
    trace_id: randomUUID(),
    log_type: event.logType,
    attempts: 0,
    due: 0,
    claim: null,
  };
  store.put('event', eventKey(seq), pending);
  discardOverflow(store, outbox);
  return seq;
}

/** What the event wrapper of one mall needs. */
export interface EmittingContext extends OutboxOf {
  readonly store: SandboxStore;
  /** The event each write operation records (from the spec). */
  readonly sources: ReadonlyMap<string, EventSource>;
  /** The mall's reception status: events are recorded only while it is `T`. */
  readonly reception: () => ReceptionStatus;
}

type Input = Parameters<AnyHandler>[0];

/** The one record an answer holds (`{product: {...}}` → the product); undefined when none. */
function recordOf(outcome: SandboxOutcome | undefined): Record<string, unknown> | undefined {
  if (!outcome?.ok || typeof outcome.body !== 'object' || outcome.body === null) return undefined;
  const [value] = Object.values(outcome.body);
  return isJsonObject(value) ? value : undefined;
}

/** The event body of a write: the schema's attributes of the record, the mall and the shop. */
function eventBody(
  source: EventSource,
  record: Readonly<Record<string, unknown>>,
  mallId: string,
  shopNo: number,
): string {
  const known: Record<string, unknown> = { ...record, mall_id: mallId, event_shop_no: String(shopNo) };
  const resource = Object.fromEntries(
    source.attributes.flatMap((name) =>
      known[name] === undefined || known[name] === null ? [] : [[name, known[name]]],
    ),
  );
  return JSON.stringify({ event_no: source.eventNo, resource });
}

/**
 * The handlers with every write the spec reports as an event recording it: the write, the read of
 * the record before it and the event run in one store transaction.
 */
export function emittingEvents<Operations>(
  handlers: HandlerMap<Operations>,
  context: EmittingContext,
): HandlerMap<Operations> {
  const table = handlers as Readonly<Record<string, AnyHandler | undefined>>;
  return wrapEach(handlers, (handler, operationId) => {
    const source = context.sources.get(operationId);
    if (!source) return handler;
    const read = source.readOperationId ? table[source.readOperationId] : undefined;
    const before = (input: Input, shopNo: number): SandboxOutcome | undefined => {
      if (!read) return undefined;
      try {
        return read({ path: input.path, query: { shop_no: shopNo }, body: undefined });
      } catch {
        return undefined; // no such record: the write itself refuses
      }
    };
    const emitting: AnyHandler = (input) =>
      context.store.transaction(() => {
        const { shopNo } = shopOf(input as ShopCarrier);
        const earlier = before(input, shopNo);
        const outcome = handler(input);
        if (outcome.ok && outcome.kind !== 'found' && context.reception() === 'T') {
          const record = { ...recordOf(earlier), ...recordOf(outcome) };
          const body = eventBody(source, record, context.mallId, shopNo);
          recordEvent(context.store, context, { eventNo: source.eventNo, body, logType: 'G' });
        }
        return outcome;
      });
    return emitting;
  });
}
