// The platform's events as an app receives them: `AdminEvent`, the union of the event bodies the
// spec declares under `webhooks` (one member per `event_no`, generated types), and `parseWebhook`,
// which checks an incoming delivery's envelope against them. It checks the envelope only (an object
// with a declared `event_no` and a `resource` object), not every field of the resource: the client
// stays small, and the platform's event bodies are open (read the resource again through the API
// before acting on it). Not for authenticating a delivery: compare its `X-API-Key` header with the
// app's webhook key first; the platform publishes no body signature.
import type { webhooks } from '@mall-api/specs/types/admin';
import { eventNumbers } from './generated/event-numbers.js';

/** The body of one event the spec declares, by its name under `webhooks`. */
type EventBody<Name extends keyof webhooks> = NonNullable<
  webhooks[Name]['post']
>['requestBody']['content']['application/json'];

/** Any event the platform sends: a union discriminated by `event_no`. */
export type AdminEvent = { [Name in keyof webhooks]: EventBody<Name> }[keyof webhooks];
/** The event numbers the spec declares (`90001` a product created, …). */
export type AdminEventNo = AdminEvent['event_no'];
/** The event with number `No`. */
export type AdminEventOf<No extends AdminEventNo> = Extract<AdminEvent, { event_no: No }>;

/** Why a delivery was refused: not a JSON event envelope, or an event number the spec does not declare. */
export type WebhookParseErrorCode = 'malformed_event' | 'unknown_event';

/** Raised by {@link parseWebhook} for a body that is not a declared event. */
export class WebhookParseError extends Error {
  constructor(
    readonly code: WebhookParseErrorCode,
    message: string,
    readonly context: { eventNo?: unknown } = {},
  ) {
    super(message);
    this.name = 'WebhookParseError';
  }
}

const declared: ReadonlySet<number> = new Set(eventNumbers);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses a delivery's body (the raw text, or JSON already parsed) into a declared event, whose
 * type narrows by `event_no`. An `event_no` sent as a string of digits is read as its number.
 *
 * @throws {WebhookParseError} `malformed_event` when the body is not JSON, not an object, or lacks
 *   a numeric `event_no` or a `resource` object; `unknown_event` when `event_no` is not declared.
 */
export function parseWebhook(body: unknown): AdminEvent {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      throw new WebhookParseError('malformed_event', 'the delivery body is not JSON');
    }
  }
  if (!isObject(value))
    throw new WebhookParseError('malformed_event', 'the delivery body is not a JSON object');
  const raw = value.event_no;
  const eventNo = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof eventNo !== 'number' || !Number.isInteger(eventNo))
    throw new WebhookParseError('malformed_event', 'event_no is not a number', { eventNo: raw });
  if (!isObject(value.resource))
    throw new WebhookParseError('malformed_event', 'resource is not an object', { eventNo });
  if (!declared.has(eventNo))
    throw new WebhookParseError('unknown_event', `event_no ${eventNo} is not a declared event`, { eventNo });
  return { ...value, event_no: eventNo } as AdminEvent;
}
