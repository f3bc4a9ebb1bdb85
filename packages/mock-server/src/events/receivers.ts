// The receiver each mall's events go to: the one registered for the mall (the control API), else
// the process's default (`--webhook-url`, `startMock`'s events option), each with the webhook key
// sent as `X-API-Key`. Registrations are this process's: replicas are given the same default. A
// URL outside the allowed targets (receiver-targets.ts) is refused with what is wrong.
import { receiverTargetProblem } from './receiver-targets.js';

/** Where one mall's events are POSTed, and the key they carry. */
export interface Receiver {
  readonly url: string;
  /** Sent as `X-API-Key` (none: the header is left out). */
  readonly key?: string;
}

/** How receivers are chosen. */
export interface ReceiverOptions {
  /** The receiver of every mall that registered none. */
  readonly receiver?: Receiver;
  /** Allow receivers on any host, not only this machine and private networks. */
  readonly anyTarget?: boolean;
}

/** The receivers of one process. */
export interface Receivers {
  of(mallId: string): Receiver | undefined;
  /** Registers a mall's receiver; answers what is wrong with its URL instead when it may not be used. */
  register(mallId: string, receiver: Receiver): string | undefined;
  /** Removes a mall's own receiver (the default applies again). */
  unregister(mallId: string): void;
}

/** The receivers `options` allow; throws when the default one may not be used. */
export function createReceivers(options: ReceiverOptions = {}): Receivers {
  const anyTarget = options.anyTarget ?? false;
  const fallback = options.receiver;
  if (fallback) {
    const problem = receiverTargetProblem(fallback.url, anyTarget);
    if (problem) throw new Error(`the webhook receiver ${fallback.url} ${problem}`);
  }
  const registered = new Map<string, Receiver>();
  return {
    of: (mallId) => registered.get(mallId) ?? fallback,
    register(mallId, receiver) {
      const problem = receiverTargetProblem(receiver.url, anyTarget);
      if (!problem) registered.set(mallId, receiver);
      return problem;
    },
    unregister: (mallId) => {
      registered.delete(mallId);
    },
  };
}
