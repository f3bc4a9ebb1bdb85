// The event delivery of one mock process in sandbox mode: its receivers (receivers.ts) and its
// dispatcher (event-dispatcher.ts), woken when a mall's outbox changes, when a mall registers a
// receiver, and at start for every mall whose outbox holds events a stopped process or another
// replica had not delivered. The delivery policy is the specs'; tests may override parts of it.
import type { SandboxMallsGateway } from '@mall-api/sandbox/protocol';
import {
  createEventDispatcher,
  type DispatcherOptions,
  type EventDispatcher,
  type RetryPolicy,
} from './event-dispatcher.js';
import { createReceivers, type Receiver, type ReceiverOptions, type Receivers } from './receivers.js';

/** How a process delivers events: its default receiver, the targets allowed, timers and retries. */
export interface EventDeliveryOptions
  extends ReceiverOptions,
    Pick<DispatcherOptions, 'timers' | 'send' | 'onError' | 'faultOf'> {
  /** Overrides of the declared retry policy (tests). */
  readonly policy?: Partial<RetryPolicy>;
}

/** What the specs declare of deliveries: the retry policy and the longest delivery fault delay. */
export type DeclaredDelivery = Pick<DispatcherOptions, 'policy' | 'maxDelayMs'>;

/** A process's event delivery. */
export interface EventDelivery {
  readonly receivers: Receivers;
  readonly dispatcher: EventDispatcher;
  /** Registers a mall's receiver and delivers what waits; answers what is wrong with its URL instead. */
  register(mallId: string, receiver: Receiver): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Starts delivering the events of `sandbox`'s malls as `options` say. */
export async function startEventDelivery(
  sandbox: SandboxMallsGateway,
  declared: DeclaredDelivery,
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
    receivers,
    dispatcher,
    async register(mallId, receiver) {
      const problem = await receivers.register(mallId, receiver);
      if (!problem) dispatcher.kick(mallId);
      return problem;
    },
    close: () => dispatcher.close(),
  };
}
