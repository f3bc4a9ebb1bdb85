// Delivers the sandbox malls' events to each mall's receiver, as the platform does: a POST of the
// event's JSON with the webhook key in `X-API-Key`, a mall's events one at a time in commit order, a
// failed attempt retried after a doubling backoff up to the spec's `x-webhook-delivery` policy (a
// test send once). Due events are claimed in batches under a lease that outlasts a batch, so replicas
// sharing a store never send one twice. Deliveries run beside the API, on `timers` (the wall clock
// by default); a delivery fault (`faultOf`) delays, drops or doubles one.
import { randomUUID } from 'node:crypto';
import type { FaultAction } from '@mall-api/mall-state';
import type {
  ClaimedEvent,
  DeliveryAttempt,
  SandboxEvents,
  SettledAttempt,
  WebhookReceiver,
} from '@mall-api/sandbox/protocol';
import type { WebhookDelivery } from '@mall-api/spec-model';

/** The clock and the one timer kind the dispatcher uses. */
export interface DispatchTimers {
  now(): number;
  /** Runs `run` after `ms`; the answer cancels it. */
  after(ms: number, run: () => void): () => void;
}

/** How hard a delivery is tried (the admin spec's `x-webhook-delivery`). */
export type RetryPolicy = Pick<WebhookDelivery, 'timeoutMs' | 'maxAttempts' | 'backoffMs'>;

/** POSTs one event; rejects when no answer came (refused, aborted at the timeout). */
export type Send = (
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ status: number; body: string }>;

/** What the dispatcher needs. */
export interface DispatcherOptions {
  readonly events: SandboxEvents;
  /** The receiver registered for a mall, if any. */
  readonly receiverOf: (mallId: string) => Promise<WebhookReceiver | undefined>;
  readonly timers?: DispatchTimers;
  readonly policy: RetryPolicy;
  /** The longest a delivery fault may delay a delivery, in ms (the control spec's `DeliveryDelayMs`). */
  readonly maxDelayMs: number;
  /** How an event is POSTed (default: `fetch`). */
  readonly send?: Send;
  /** The fault rule that fires for a delivery of the mall's event `eventNo`, if any (using it up). */
  readonly faultOf?: (mallId: string, eventNo: number) => Promise<FaultAction | undefined>;
  /** Hears of a failure to reach the sandbox's store (a delivery failure is logged, not thrown). */
  readonly onError?: (error: unknown) => void;
}

/** The dispatcher of one process. */
export interface EventDispatcher {
  /** A mall's outbox changed: deliver what is due (after the current write has finished). */
  kick(mallId: string): void;
  /** Resolves once no delivery is under way. */
  idle(): Promise<void>;
  /** Stops: no new attempt starts; resolves once those under way are settled. */
  close(): Promise<void>;
}

/** Events claimed (and settled) together: fewer trips to a shared store per event. */
export const claimBatchSize = 16;

/** The real clock and timers (not keeping the process alive). */
export const wallClockTimers: DispatchTimers = {
  now: Date.now,
  after(ms, run) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** A response body kept in the log, at most this many characters. */
const loggedBodyLength = 2_000;

const fetchSend: Send = async (url, { headers, body, signal }) => {
  const response = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
  return { status: response.status, body: await response.text() };
};

/** A dispatcher delivering the events `options.events` holds. */
export function createEventDispatcher(options: DispatcherOptions): EventDispatcher {
  const { events, receiverOf } = options;
  const timers = options.timers ?? wallClockTimers;
  const { policy, maxDelayMs } = options;
  const send = options.send ?? fetchSend;
  const owner = randomUUID();
  // A batch's events are sent one after another, each delayed at most `maxDelayMs` and sent at most
  // twice (a duplicate), each send taking at most the timeout.
  const leaseMs = claimBatchSize * (maxDelayMs + 2 * policy.timeoutMs) + 1_000;
  const draining = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const retries = new Map<string, () => void>();
  let closed = false;

  const attempt = async (receiver: WebhookReceiver, claimed: ClaimedEvent): Promise<DeliveryAttempt> => {
    const controller = new AbortController();
    const cancel = timers.after(policy.timeoutMs, () => controller.abort());
    const requestedAt = timers.now();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (receiver.key !== undefined) headers['x-api-key'] = receiver.key;
    try {
      const answer = await send(receiver.url, { headers, body: claimed.body, signal: controller.signal });
      const success = answer.status >= 200 && answer.status < 300;
      return {
        requestedAt,
        endpoint: receiver.url,
        success,
        status: answer.status,
        responseBody: answer.body.slice(0, loggedBodyLength),
      };
    } catch {
      return { requestedAt, endpoint: receiver.url, success: false, status: null, responseBody: null };
    } finally {
      cancel();
    }
  };

  /** When to try a failed attempt again; undefined: never. */
  const retryAt = (claimed: ClaimedEvent, result: DeliveryAttempt) =>
    result.success || claimed.logType === 'T' || claimed.attempt >= policy.maxAttempts
      ? undefined
      : timers.now() + policy.backoffMs * 2 ** (claimed.attempt - 1);

  /** The attempts of one claimed event, as its mall's delivery faults make them. */
  const deliver = async (mallId: string, receiver: WebhookReceiver, claimed: ClaimedEvent) => {
    const fault = await options.faultOf?.(mallId, claimed.eventNo);
    if (fault?.kind === 'delay') {
      const ms = Math.min(maxDelayMs, fault.minMs + Math.random() * (fault.maxMs - fault.minMs));
      await new Promise<void>((resolve) => timers.after(ms, resolve));
    }
    const settle = (result: DeliveryAttempt): SettledAttempt => ({
      claimed,
      attempt: result,
      retryAt: fault?.kind === 'drop' ? undefined : retryAt(claimed, result),
    });
    if (fault?.kind === 'drop') {
      const lost = { endpoint: receiver.url, success: false, status: null, responseBody: null };
      return [settle({ requestedAt: timers.now(), ...lost })];
    }
    const first = settle(await attempt(receiver, claimed));
    return fault?.kind === 'duplicate' ? [first, settle(await attempt(receiver, claimed))] : [first];
  };

  const schedule = async (mallId: string) => {
    const due = await events.nextDue(mallId);
    retries.get(mallId)?.();
    retries.delete(mallId);
    if (due === undefined || closed) return;
    retries.set(
      mallId,
      timers.after(Math.max(0, due - timers.now()), () => {
        retries.delete(mallId);
        kick(mallId);
      }),
    );
  };

  const drain = async (mallId: string) => {
    // A kick while draining (even while scheduling) drains again.
    for (;;) {
      again.delete(mallId);
      for (;;) {
        const receiver = await receiverOf(mallId);
        if (closed || !receiver) return;
        const batch = await events.claim(mallId, owner, timers.now(), leaseMs, claimBatchSize);
        if (batch.length === 0) break;
        const settled: SettledAttempt[] = [];
        for (const claimed of batch) settled.push(...(await deliver(mallId, receiver, claimed)));
        await events.settle(mallId, settled);
      }
      await schedule(mallId);
      if (!again.has(mallId)) return;
    }
  };

  const kick = (mallId: string) => {
    if (closed) return;
    if (draining.has(mallId)) {
      again.add(mallId);
      return;
    }
    // After the write that recorded the event has finished (the store hears of it inside).
    const run = Promise.resolve()
      .then(() => drain(mallId))
      .catch((error: unknown) => options.onError?.(error)) // the events wait in the outbox for the next kick
      .finally(() => draining.delete(mallId));
    draining.set(mallId, run);
  };

  const idle = async () => {
    while (draining.size > 0) await Promise.all([...draining.values()]);
  };
  return {
    kick,
    idle,
    async close() {
      closed = true;
      for (const cancel of retries.values()) cancel();
      retries.clear();
      await idle();
    },
  };
}
