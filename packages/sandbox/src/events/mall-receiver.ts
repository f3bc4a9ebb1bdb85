// The receiver registered for one mall (through the mocks' control API), kept in the mall's own
// store (`receiver` table, one record), so on a shared store every replica's dispatcher delivers
// to it. Like the outbox and the delivery log it is not part of a snapshot: a reset or a restore
// empties it (the process's default receiver applies again).
import type { SandboxStore } from '@mall-api/mall-state';
import type { WebhookReceiver } from '../protocol.js';

/** The key of the one record of the `receiver` table. */
const receiverKey = 'registered';

/** The mall's registered receiver, if any. */
export function registeredReceiver(store: SandboxStore): WebhookReceiver | undefined {
  const stored = store.get<{ url: string; key?: string }>('receiver', receiverKey);
  if (!stored) return undefined;
  return { url: stored.url, ...(stored.key === undefined ? {} : { key: stored.key }) };
}

/** Registers `receiver` for the mall (none: removes the registered one); call inside a transaction. */
export function registerReceiver(store: SandboxStore, receiver: WebhookReceiver | undefined): void {
  if (receiver) store.put('receiver', receiverKey, { ...receiver });
  else store.delete('receiver', receiverKey);
}
