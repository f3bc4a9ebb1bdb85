// The mall's webhook setting (`reception_status`, on until an update turns it off), kept in the
// mall's store so snapshots, resets and refused writes treat it like the catalogue: a named number
// of the store's `sequence` table (1 on, 0 off), the one table of named values the store offers;
// nothing draws numbers from it. The sandbox has no consent step, so no shared scopes are stored.
import type { SandboxStore } from '@mall-api/mall-state';

/** `T` (events delivered) or `F`. */
export type ReceptionStatus = 'T' | 'F';

/** Reads and changes one mall's webhook setting. */
export interface WebhookSetting {
  receptionStatus(): ReceptionStatus;
  /** Stores `status`; call inside a store transaction. */
  setReceptionStatus(status: ReceptionStatus): ReceptionStatus;
}

/** The key of the setting in the store's table of named numbers. */
const receptionKey = 'webhook_reception';

/** The webhook setting kept in `store`. */
export function createWebhookSetting(store: SandboxStore): WebhookSetting {
  return {
    receptionStatus: () => (store.get('sequence', receptionKey)?.value === 0 ? 'F' : 'T'),
    setReceptionStatus(status) {
      store.put('sequence', receptionKey, { value: status === 'T' ? 1 : 0 });
      return status;
    },
  };
}
