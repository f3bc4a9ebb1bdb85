// parseWebhook at the function: a declared event's body (raw text or parsed JSON) is answered as it
// came, `event_no` as a number; a body that is not a JSON event envelope, or whose event number the
// spec does not declare, raises a WebhookParseError with its code. The bodies are the spec's own
// examples of each event, read from the bundle.
import { loadSpecSync, webhooksOf } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { parseWebhook, WebhookParseError } from './index.js';

const model = loadSpecSync('admin');
// biome-ignore lint/suspicious/noExplicitAny: the dereferenced bundle is read loosely
const document = model.dereference(model.document) as any;
/** The named body examples of every event the spec declares: [event number, body]. */
const samples = webhooksOf(model.document).flatMap(({ name, eventNo }) =>
  Object.values<{ value: unknown }>(
    document.webhooks[name].post.requestBody.content['application/json'].examples,
  ).map(({ value }) => [eventNo, value] as const),
);

/** The error `parse` raises. */
function refusal(parse: () => unknown): WebhookParseError {
  try {
    parse();
  } catch (error) {
    if (error instanceof WebhookParseError) return error;
    throw error;
  }
  throw new Error('parseWebhook accepted the body');
}

describe('parseWebhook', () => {
  it('reads the example of every declared event, as text and as parsed JSON', () => {
    expect(samples.length).toBeGreaterThanOrEqual(12);
    for (const [eventNo, body] of samples) {
      expect(parseWebhook(JSON.stringify(body))).toEqual(body);
      expect(parseWebhook(body)).toMatchObject({ event_no: eventNo });
    }
  });

  it('reads an event_no sent as a string of digits as its number', () => {
    const event = parseWebhook('{"event_no":"90003","resource":{"mall_id":"bestshop","product_no":7}}');
    expect(event.event_no).toBe(90003);
    expect(event.resource).toEqual({ mall_id: 'bestshop', product_no: 7 });
  });

  it('refuses a body that is not a JSON event envelope, naming why', () => {
    const cases: [unknown, string][] = [
      ['{"event_no":', 'not JSON'],
      ['[90001]', 'not a JSON object'],
      [null, 'not a JSON object'],
      ['{"resource":{}}', 'event_no is not a number'],
      ['{"event_no":"9000x","resource":{}}', 'event_no is not a number'],
      ['{"event_no":90001}', 'resource is not an object'],
      ['{"event_no":90001,"resource":[]}', 'resource is not an object'],
    ];
    for (const [body, message] of cases) {
      const error = refusal(() => parseWebhook(body));
      expect(error.code).toBe('malformed_event');
      expect(error.message).toContain(message);
    }
  });

  it('refuses an event number the spec does not declare', () => {
    const error = refusal(() => parseWebhook({ event_no: 90084, resource: { mall_id: 'bestshop' } }));
    expect(error).toMatchObject({
      code: 'unknown_event',
      context: { eventNo: 90084 },
      name: 'WebhookParseError',
    });
  });
});
