// The event delivery of one mock process in sandbox mode: its receivers (receivers.ts) and its
// dispatcher (event-dispatcher.ts), woken whenever a mall's outbox changes, when a mall registers
// a receiver, and at start for every mall the storage already holds (events a stopped process had
// not delivered yet).
import type { SandboxMallsGateway } from '@mall-api/sandbox/protocol';
import { createEventDispatcher, type DispatcherOptions, type EventDispatcher } from './event-dispatcher.js';
import { createReceivers, type Receiver, type ReceiverOptions, type Receivers } from './receivers.js';

/** How a process delivers events: its default receiver, the targets allowed, timers and retries. */
export interface EventDeliveryOptions
  extends ReceiverOptions,
    Pick<DispatcherOptions, 'timers' | 'policy' | 'send' | 'onError' | 'faultOf'> {}

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
  options: EventDeliveryOptions = {},
): Promise<EventDelivery> {
  const receivers = createReceivers(sandbox.events, options);
  const dispatcher = createEventDispatcher({ ...options, events: sandbox.events, receiverOf: receivers.of });
  sandbox.events.onChange(dispatcher.kick);
  if (options.receiver) for (const mallId of await sandbox.mallIds()) dispatcher.kick(mallId);
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
