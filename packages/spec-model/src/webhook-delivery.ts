// How the sandbox delivers a mall's events, as the admin document's `x-webhook-delivery` states it
// (on the webhook setting operation): an attempt's timeout, the attempts per event and the backoff
// between them, the outbox and delivery-log capacities, what an outbox past its capacity does with
// its oldest event, and which receiver hosts are allowed by default. Read by the sandbox (outbox,
// log) and the mock server's dispatcher; the guides' statements of it are checked against it.
import { isJsonObject, type JsonObject, resolveOptional } from './json-document.js';
import { httpMethods } from './operation-index.js';

/** The declared delivery policy. */
export interface WebhookDelivery {
  /** How long one attempt may take, in ms. */
  readonly timeoutMs: number;
  /** Attempts per event, the first included. */
  readonly maxAttempts: number;
  /** The wait before the first retry, in ms, doubled for each later one. */
  readonly backoffMs: number;
  /** Undelivered events a mall's outbox holds at most. */
  readonly outboxCapacity: number;
  /** What happens to the oldest event past the outbox's capacity. */
  readonly outboxOverflow: 'log-discarded';
  /** Attempts a mall's delivery log keeps (the latest). */
  readonly logCapacity: number;
  /** The receiver hosts allowed unless the server allows any. */
  readonly targets: 'private-networks';
}

const numberAt = (declared: JsonObject, key: string): number => {
  const value = declared[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new Error(`x-webhook-delivery.${key} is not a positive integer`);
  return value;
};

const oneOf = <T extends string>(declared: JsonObject, key: string, allowed: readonly T[]): T => {
  const value = declared[key];
  if (!allowed.includes(value as T))
    throw new Error(`x-webhook-delivery.${key} is not one of ${allowed.join(', ')}`);
  return value as T;
};

/** The `x-webhook-delivery` of a bundled document's operations; throws when none or several declare it. */
export function webhookDeliveryOf(document: JsonObject): WebhookDelivery {
  const paths = isJsonObject(document.paths) ? document.paths : {};
  const declared = Object.values(paths).flatMap((itemRef) => {
    const item = resolveOptional(document, itemRef) ?? {};
    return httpMethods.flatMap((method) => {
      const found = resolveOptional(
        document,
        resolveOptional(document, item[method])?.['x-webhook-delivery'],
      );
      return found ? [found] : [];
    });
  });
  const [policy] = declared;
  if (declared.length !== 1 || !policy)
    throw new Error(`the document declares x-webhook-delivery ${declared.length} times, not once`);
  return {
    timeoutMs: numberAt(policy, 'timeout-ms'),
    maxAttempts: numberAt(policy, 'max-attempts'),
    backoffMs: numberAt(policy, 'backoff-ms'),
    outboxCapacity: numberAt(policy, 'outbox-capacity'),
    outboxOverflow: oneOf(policy, 'outbox-overflow', ['log-discarded']),
    logCapacity: numberAt(policy, 'log-capacity'),
    targets: oneOf(policy, 'targets', ['private-networks']),
  };
}
