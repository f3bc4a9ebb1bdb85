// The mall's webhook setting (`reception_status`, on until an update turns it off), kept in the
// mall's store so snapshots, resets and refused writes treat it like the catalogue: a named number
// of the store's `sequence` table (1 on, 0 off), the one table of named values the store offers;
// nothing draws numbers from it. The sandbox has no consent step, so no shared scopes are stored.
import type { SandboxStore } from '@mall-api/mall-state';

/** `T` (events delivered) or `F`. */
export type ReceptionStatus = 'T' | 'F';

/** The key of the setting in the store's table of named numbers. */
const receptionKey = 'webhook_reception';

/** Reads and changes the webhook setting kept in `store`. */
export function createWebhookSetting(store: SandboxStore) {
  return {
    receptionStatus: (): ReceptionStatus => (store.get('sequence', receptionKey)?.value === 0 ? 'F' : 'T'),
    /** Stores `status`; call inside a store transaction. */
    setReceptionStatus(status: ReceptionStatus): ReceptionStatus {
      store.put('sequence', receptionKey, { value: status === 'T' ? 1 : 0 });
      return status;
    },
  };
}
