// The outbox past its capacity: the oldest events are discarded, each logged as a failed delivery
// with no answer (its body, trace id and kind as it would have been sent, to the mall's registered
// receiver), so the delivery log shows every event not delivered; the log keeps its capacity too.
// The shipped spec declares the capacities the sandbox uses (`x-webhook-delivery`).
import { createMemoryStore } from '@mall-api/mall-state';
import { webhookDeliveryOf } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { shippedSpecs } from '../testing/test-malls.js';
import { deliveryLog } from './delivery-log.js';
import { type PendingEvent, recordEvent } from './event-outbox.js';
import { registerReceiver } from './mall-receiver.js';

const outbox = { mallId: 'overflow', policy: { outboxCapacity: 2, logCapacity: 3 } };
const record = (store: ReturnType<typeof createMemoryStore>, product: number) =>
  store.transaction(() =>
    recordEvent(store, outbox, {
      eventNo: 90001,
      body: JSON.stringify({ event_no: 90001, resource: { product_no: product } }),
      logType: 'G',
    }),
  );

describe('an outbox past its capacity', () => {
  it('discards the oldest events, logging each as a failed delivery', () => {
    const store = createMemoryStore();
    store.transaction(() => registerReceiver(store, { url: 'http://127.0.0.1:9/hook' }));
    for (const product of [1, 2, 3, 4]) record(store, product);
    const waiting = (store.all('event') as PendingEvent[]).map((event) => JSON.parse(event.body).resource);
    expect(waiting).toEqual([{ product_no: 3 }, { product_no: 4 }]);
    const log = deliveryLog(store);
    expect(log.map((entry) => JSON.parse(entry.request_body).resource.product_no)).toEqual([1, 2]);
    expect(log[0]).toMatchObject({
      mall_id: 'overflow',
      log_type: 'G',
      event_no: 90001,
      success: 'F',
      response_http_code: null,
      response_body: null,
      request_endpoint: 'http://127.0.0.1:9/hook',
    });
    expect(new Set(log.map((entry) => entry.trace_id)).size).toBe(2);
  });

  it('keeps the latest entries of the log within its capacity', () => {
    const store = createMemoryStore();
    for (const product of [1, 2, 3, 4, 5, 6]) record(store, product);
    expect(deliveryLog(store).map((entry) => JSON.parse(entry.request_body).resource.product_no)).toEqual([
      2, 3, 4,
    ]);
  });

  it('takes its capacities from the spec', async () => {
    const { admin } = await shippedSpecs();
    expect(webhookDeliveryOf(admin.document)).toMatchObject({
      outboxCapacity: 1000,
      outboxOverflow: 'log-discarded',
      logCapacity: 1000,
    });
  });
});
