// Type-level behaviour of the event types: `AdminEvent` is the union of the declared event bodies,
// narrowed by `event_no` to each body's own resource (the types the platform's samples send:
// `event_shop_no` a string, 90041's `product_no` a comma-joined string); the generated event
// numbers are exactly the declared ones; an undeclared number does not compile.
import { describe, expectTypeOf, it } from 'vitest';
import type { eventNumbers } from './generated/event-numbers.js';
import { type AdminEvent, type AdminEventNo, type AdminEventOf, parseWebhook } from './index.js';

describe('event types', () => {
  it('narrows a parsed event by event_no', () => {
    const event = parseWebhook('{}');
    expectTypeOf(event).toEqualTypeOf<AdminEvent>();
    if (event.event_no === 90001) {
      expectTypeOf(event.resource.product_no).toEqualTypeOf<number>();
      expectTypeOf(event.resource.event_shop_no).toEqualTypeOf<string | undefined>();
    }
    if (event.event_no === 90041) expectTypeOf(event.resource.product_no).toEqualTypeOf<string>();
    if (event.event_no === 90150) expectTypeOf(event.resource.product_no).toEqualTypeOf<string>();
    if (event.event_no === 90044) expectTypeOf(event.resource.category_no).toEqualTypeOf<number>();
  });

  it('names each event by its number, and the generated numbers are the declared ones', () => {
    expectTypeOf<AdminEventOf<90003>['resource']['product_code']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<(typeof eventNumbers)[number]>().toEqualTypeOf<AdminEventNo>();
    // @ts-expect-error 90084 (a product put in a cart) is not an event of this API
    expectTypeOf<AdminEventOf<90084>>().toBeNever();
  });
});
