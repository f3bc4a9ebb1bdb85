// The event delivery of one mock process in sandbox mode: its dispatcher (event-dispatcher.ts),
// woken when a mall's outbox changes, when a mall registers a receiver, and at start for every mall
// whose outbox holds events a stopped process or another replica left; and its receivers: a mall's
// registered one (kept in the mall's store, so every replica sharing it delivers there), else the
// process's default, each within the allowed targets (receiver-targets.ts).
import type { SandboxEvents, SandboxMallsGateway, WebhookReceiver } from '@mall-api/sandbox/protocol';
import {
  createEventDispatcher,
  type DispatcherOptions,
  type EventDispatcher,
  type RetryPolicy,
} from './event-dispatcher.js';
import { receiverTargetProblem } from './receiver-targets.js';

/** How receivers are chosen. */
export interface ReceiverOptions {
  /** The receiver of every mall that registered none. */
  readonly receiver?: WebhookReceiver;
  /** Allow receivers on any host, not only this machine and private networks. */
  readonly anyTarget?: boolean;
}

/** The receivers of the malls. */
export interface Receivers {
  of(mallId: string): Promise<WebhookReceiver | undefined>;
  /** Registers a mall's receiver; answers what is wrong with its URL instead when it may not be used. */
  register(mallId: string, receiver: WebhookReceiver): Promise<string | undefined>;
}

/** The receivers `options` allow over the malls' registered ones; throws when the default one may not be used. */
export function createReceivers(
  registered: Pick<SandboxEvents, 'receiverOf' | 'register'>,
  options: ReceiverOptions = {},
): Receivers {
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

/** How a process delivers events: its default receiver, the targets allowed, timers and retries. */
export interface EventDeliveryOptions
  extends ReceiverOptions,
    Pick<DispatcherOptions, 'timers' | 'send' | 'onError' | 'faultOf'> {
  /** Overrides of the declared retry policy (tests). */
  readonly policy?: Partial<RetryPolicy>;
}

/** A process's event delivery. */
export interface EventDelivery {
  readonly dispatcher: EventDispatcher;
  /** Registers a mall's receiver and delivers what waits; answers what is wrong with its URL instead. */
  register(mallId: string, receiver: WebhookReceiver): Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * Starts delivering the events of `sandbox`'s malls as `options` say.
 * @param declared what the specs declare of deliveries: the retry policy and the longest delivery fault delay
 */
export async function startEventDelivery(
  sandbox: SandboxMallsGateway,
  declared: Pick<DispatcherOptions, 'policy' | 'maxDelayMs'>,
  options: EventDeliveryOptions = {},
): Promise<EventDelivery> {
  const receivers = createReceivers(sandbox.events, options);
  const dispatcher = createEventDispatcher({
    ...options,
    policy: { ...declared.policy, ...options.policy },
    maxDelayMs: declared.maxDelayMs,
    events: sandbox.events,
    receiverOf: receivers.of,
  });
  sandbox.events.onChange(dispatcher.kick);
  for (const mallId of await sandbox.events.pending()) dispatcher.kick(mallId);
  return {
    dispatcher,
    async register(mallId, receiver) {
      const problem = await receivers.register(mallId, receiver);
      if (!problem) dispatcher.kick(mallId);
      return problem;
    },
    close: () => dispatcher.close(),
  };
}
