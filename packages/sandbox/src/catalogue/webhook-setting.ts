// The mall's webhook setting: whether its events are delivered to the app (`reception_status`,
// `T` or `F`; on until an update turns it off). Kept in the mall's store, so a snapshot, a reset
// and a refused write treat it like the catalogue: as a named number of the store's `sequence`
// table (1 on, 0 off), the one table of named values the store offers; it is not a sequence and
// nothing draws numbers from it. Which scopes the mall shares is not stored: the sandbox has no
// consent step (see the view).
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
