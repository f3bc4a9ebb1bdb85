// The events of the malls a sandbox holds, as its gateway offers them to a dispatcher: outbox
// change notices, claims (a read first, then a write under the mall's lock, so two replicas never
// claim the same event), settling, the delivery log, resends, test sends and each mall's receiver,
// all through the storage's one contract (memory, SQLite and PostgreSQL alike).
import { type MallStorage, runAsWrite, type SandboxStore } from '@mall-api/mall-state';
import { type SpecModel, webhookDeliveryOf, webhooksOf } from '@mall-api/spec-model';
import type { SandboxEvents } from '../protocol.js';
import { deliveryLog } from './delivery-log.js';
import {
  claimEvents,
  hasDue,
  nextDue,
  recordTestEvent,
  resendLogged,
  settleEvent,
} from './event-deliveries.js';
import { registeredReceiver, registerReceiver } from './mall-receiver.js';

/** The sample body of each event the spec declares (its first example), by event number. */
function eventSamples(admin: SpecModel): ReadonlyMap<number, unknown> {
  const samples = new Map<number, unknown>();
  for (const event of webhooksOf(admin.document)) {
    const webhook = admin.resolveOptional(admin.document.webhooks)?.[event.name];
    const operation = admin.dereference(webhook ?? {}) as { post?: { requestBody?: unknown } };
    const body = operation.post?.requestBody as
      | { content?: { 'application/json'?: { examples?: Record<string, { value?: unknown }> } } }
      | undefined;
    const [example] = Object.values(body?.content?.['application/json']?.examples ?? {});
    if (example?.value !== undefined) samples.set(event.eventNo, example.value);
  }
  return samples;
}

/**
 * The events side of a sandbox over `storage`; `listen` registers who hears of outbox changes and
 * `write` runs a write on a mall, starting it as new malls start when the storage has none.
 */
export function mallEvents(
  storage: MallStorage,
  admin: SpecModel,
  listen: (listener: (mallId: string) => void) => void,
  write: (mallId: string, work: (store: SandboxStore) => void) => Promise<void>,
): SandboxEvents {
  const samples = eventSamples(admin);
  const policy = webhookDeliveryOf(admin.document);
  const outboxOf = (mallId: string) => ({ mallId, policy });
  /** A read of a mall, or `none` when the storage has no such mall (or must write to answer). */
  const readOr = async <R>(mallId: string, work: (store: SandboxStore) => R, none: R): Promise<R> => {
    const read = await storage.read(mallId, work);
    return read === runAsWrite ? none : read;
  };
  /** A write on a mall the storage already has, or `none` (no mall is created for an event). */
  const writeOr = async <R>(mallId: string, work: (store: SandboxStore) => R, none: R): Promise<R> =>
    (await storage.current(mallId)) ? await storage.write(mallId, work) : none;
  return {
    onChange: listen,
    async claim(mallId, owner, now, leaseMs, max) {
      if (!(await readOr(mallId, (store) => hasDue(store, now), false))) return [];
      return writeOr(mallId, (store) => claimEvents(store, owner, now, leaseMs, max), []);
    },
    async settle(mallId, settled) {
      await writeOr(
        mallId,
        (store) => {
          for (const { claimed, attempt, retryAt } of settled)
            settleEvent(store, outboxOf(mallId), claimed, attempt, retryAt);
        },
        undefined,
      );
    },
    nextDue: (mallId) => readOr(mallId, nextDue, undefined),
    resend: (mallId, logId) =>
      writeOr(mallId, (store) => resendLogged(store, outboxOf(mallId), logId), false),
    async sendTest(mallId, eventNo) {
      const sample = samples.get(eventNo);
      if (sample === undefined) return false;
      return writeOr(mallId, (store) => recordTestEvent(store, outboxOf(mallId), eventNo, sample), false);
    },
    pending: () => storage.mallsHolding('event'),
    eventNumbers: () => [...samples.keys()],
    deliveries: (mallId) => readOr(mallId, deliveryLog, []),
    receiverOf: (mallId) => readOr(mallId, registeredReceiver, undefined),
    register: (mallId, receiver) => write(mallId, (store) => registerReceiver(store, receiver)),
  };
}
