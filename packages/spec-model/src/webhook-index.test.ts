import { describe, expect, it } from 'vitest';
import { type JsonObject, loadSpecSync, webhooksOf } from './index.js';

const event = (scope?: string): JsonObject => ({
  post: {
    operationId: 'receiveThing',
    ...(scope ? { 'x-required-scope': scope } : {}),
    'x-sandbox': { sends: false },
    requestBody: {
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingEvent' } } },
    },
    responses: { '200': { description: 'Received.' } },
  },
});
const documentWith = (eventNo: unknown): JsonObject => ({
  openapi: '3.1.0',
  webhooks: { thingCreated: event('mall.read_thing') },
  components: {
    schemas: {
      ThingEvent: {
        type: 'object',
        properties: { event_no: { $ref: '#/components/schemas/ThingEventNo' } },
      },
      ThingEventNo: { type: 'integer', const: eventNo as JsonObject[string] },
    },
  },
});

describe('webhooksOf', () => {
  it('lists each event with the number its body fixes, its scope and extensions', () => {
    expect(webhooksOf(documentWith(90001))).toEqual([
      {
        name: 'thingCreated',
        operationId: 'receiveThing',
        eventNo: 90001,
        requiredScope: 'mall.read_thing',
        emittedBy: [],
        bodySchema: { $ref: '#/components/schemas/ThingEvent' },
        extensions: { 'x-required-scope': 'mall.read_thing', 'x-sandbox': { sends: false } },
      },
    ]);
  });

  it('refuses an event whose body does not fix event_no to a number', () => {
    expect(() => webhooksOf(documentWith('90001'))).toThrow(/thingCreated does not fix event_no/);
  });

  it('reads the operations x-emitted-by names', () => {
    const document = documentWith(90001);
    const post = (document.webhooks as JsonObject).thingCreated as { post: JsonObject };
    post.post['x-emitted-by'] = { operations: ['createThing'], description: 'Sent.' };
    expect(webhooksOf(document)[0]?.emittedBy).toEqual(['createThing']);
  });

  it('lists nothing for a document without webhooks', () => {
    expect(webhooksOf({ openapi: '3.1.0', paths: {} })).toEqual([]);
  });

  it("reads the admin bundle's product and category events", () => {
    const events = webhooksOf(loadSpecSync('admin').document);
    expect(events.map((entry) => entry.eventNo)).toEqual([
      90001, 90002, 90003, 90022, 90041, 90075, 90150, 90042, 90043, 90044, 90045, 90046,
    ]);
    expect(
      Object.fromEntries(events.flatMap((entry) => entry.emittedBy.map((id) => [id, entry.eventNo]))),
    ).toEqual({
      createProduct: 90001,
      updateProduct: 90002,
      deleteProduct: 90003,
      createCategory: 90042,
      updateCategory: 90043,
      deleteCategory: 90044,
    });
    expect(new Set(events.map((entry) => entry.requiredScope))).toEqual(
      new Set(['mall.read_product', 'mall.read_category']),
    );
  });
});
