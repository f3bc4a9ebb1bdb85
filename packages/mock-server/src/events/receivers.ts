// The receiver each mall's events go to: the one registered for the mall (kept in the mall's store by
// the sandbox, so every replica sharing the store delivers to it), else the process's default
// (`--webhook-url`, `startMock`'s events option). A URL outside the allowed targets
// (receiver-targets.ts) is refused with what is wrong.
import type { SandboxEvents, WebhookReceiver } from '@mall-api/sandbox/protocol';
import { receiverTargetProblem } from './receiver-targets.js';

/** Where one mall's events are POSTed, and the key they carry. */
export type Receiver = WebhookReceiver;

/** How receivers are chosen. */
export interface ReceiverOptions {
  /** The receiver of every mall that registered none. */
  readonly receiver?: Receiver;
  /** Allow receivers on any host, not only this machine and private networks. */
  readonly anyTarget?: boolean;
}

/** The receivers of the malls. */
export interface Receivers {
  of(mallId: string): Promise<Receiver | undefined>;
  /** Registers a mall's receiver; answers what is wrong with its URL instead when it may not be used. */
  register(mallId: string, receiver: Receiver): Promise<string | undefined>;
}

/** The malls' registered receivers as `events` keeps them. */
export type RegisteredReceivers = Pick<SandboxEvents, 'receiverOf' | 'register'>;

/** The receivers `options` allow over `registered`; throws when the default one may not be used. */
export function createReceivers(registered: RegisteredReceivers, options: ReceiverOptions = {}): Receivers {
  const anyTarget = options.anyTarget ?? false;
  const fallback = options.receiver;
  if (fallback) {
    const problem = receiverTargetProblem(fallback.url, anyTarget);
    if (problem) throw new Error(`the webhook receiver ${fallback.url} ${problem}`);
  }
  return {
    of: async (mallId) => (await registered.receiverOf(mallId)) ?? fallback,
    async register(mallId, receiver) {
      const problem = receiverTargetProblem(receiver.url, anyTarget);
      if (!problem) await registered.register(mallId, receiver);
      return problem;
    },
  };
}
