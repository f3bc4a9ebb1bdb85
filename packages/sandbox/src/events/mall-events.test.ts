// The sandbox's events: each admin write the spec reports (`x-emitted-by`) records exactly one event
// in its mall's outbox, in the write's transaction, with a body the spec's event schema accepts and
// the record's own values; a refused write and a mall whose reception is off record none; events are
// claimed in commit order under a lease, settled into the delivery log that `listWebhookLogs` answers
// with its declared filters, retried when asked, resent and test-sent; a mall's registered receiver
// is kept with it (starting a mall not made yet) until a reset or restore; on SQLite the outbox and
// the receiver outlive a restart. The dispatcher that sends them over HTTP is the mock server's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '@mall-api/mall-state';
import { webhooksOf } from '@mall-api/spec-model';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSandboxMalls } from '../malls/sandbox-malls.js';
import type { ClaimedEvent, SandboxEvents } from '../protocol.js';
import { type Body, closeTestMalls, mallCalls, openMall, shippedSpecs } from '../testing/test-malls.js';

afterEach(closeTestMalls);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const owner = 'test-dispatcher';
const lease = 30_000;
const now = Date.parse('2026-05-01T00:00:00Z');

/** Claims every event due at `at`, in order (each stays claimed). */
async function claimAll(events: SandboxEvents, mallId: string, at = now): Promise<ClaimedEvent[]> {
  return events.claim(mallId, owner, at, lease, 1_000);
}

/** A validator of the event body the spec declares for each event number. */
async function eventSchemas() {
  const { admin } = await shippedSpecs();
  const byNo = new Map(webhooksOf(admin.document).map((event) => [event.eventNo, event]));
  return (body: Body) => {
    const event = byNo.get(body.event_no);
    if (!event) throw new Error(`no event ${body.event_no} in the spec`);
    const validate = admin.schemas().compile(event.bodySchema);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  };
}

const accepted = {
  requestedAt: now,
  endpoint: 'http://127.0.0.1:9/hook',
  success: true,
  status: 200,
  responseBody: 'ok',
};
const failed = { ...accepted, success: false, status: 500, responseBody: 'down' };

describe('events recorded by committed writes', () => {
  it('records one event per reported write, in commit order, with the bodies the spec declares', async () => {
    const mall = await openMall('events-kinds');
    const check = await eventSchemas();
    const category = await mall.createCategory({ category_name: 'Lamps' });
    await mall.admin('updateCategory', {
      path: { category_no: category.category_no },
      body: { shop_no: 1, request: { category_name: 'Desk lamps' } },
    });
    const product = await mall.createProduct({
      product_name: 'Brass lamp',
      supply_price: '1000.00',
      price: '1200.00',
    });
    await mall.admin('updateProduct', {
      path: { product_no: product.product_no },
      body: { shop_no: 1, request: { product_name: 'Brass desk lamp' } },
    });
    await mall.admin('deleteProduct', { path: { product_no: product.product_no } });
    await mall.admin('deleteCategory', { path: { category_no: category.category_no } });
    // Reads and writes the spec does not report record nothing.
    await mall.admin('listProducts');
    await mall.admin('updateCategorySeo', {
      path: { category_no: (await mall.createCategory({ category_name: 'Plain' })).category_no },
      body: { shop_no: 1, request: { search_engine_exposure: 'T' } },
    });

    const bodies = (await claimAll(mall.malls.events, 'events-kinds')).map((claimed) =>
      JSON.parse(claimed.body),
    );
    expect(bodies.map((body) => body.event_no)).toEqual([90042, 90043, 90001, 90002, 90003, 90044, 90042]);
    for (const body of bodies) check(body);
    const [created, updated, productCreated, productUpdated, productDeleted, categoryDeleted] = bodies;
    expect(created.resource).toMatchObject({
      mall_id: 'events-kinds',
      event_shop_no: '1',
      category_no: category.category_no,
      category_name: 'Lamps',
    });
    expect(updated.resource).toMatchObject({
      category_no: category.category_no,
      category_name: 'Desk lamps',
    });
    expect(productCreated.resource).toMatchObject({
      mall_id: 'events-kinds',
      event_shop_no: '1',
      product_no: product.product_no,
      product_code: product.product_code,
      product_name: 'Brass lamp',
      price: product.price,
      created_date: product.created_date,
    });
    expect(productUpdated.resource).toMatchObject({
      product_no: product.product_no,
      product_name: 'Brass desk lamp',
    });
    // A delete's answer holds only the number: the code comes from the record before the delete.
    expect(productDeleted.resource).toEqual({
      mall_id: 'events-kinds',
      event_shop_no: '1',
      product_no: product.product_no,
      product_code: product.product_code,
    });
    expect(categoryDeleted.resource).toEqual({
      mall_id: 'events-kinds',
      event_shop_no: '1',
      category_no: category.category_no,
    });
  });

  it('records the shop the write named', async () => {
    const mall = await openMall('events-shop', { mall: { shops: 2 } });
    const product = await mall.createProduct({ product_name: 'Shop lamp', supply_price: '1000.00' });
    await mall.admin('updateProduct', {
      path: { product_no: product.product_no },
      body: { shop_no: 2, request: { product_name: 'Second shop lamp' } },
    });
    const [, update] = await claimAll(mall.malls.events, 'events-shop');
    expect(JSON.parse(update?.body ?? '{}').resource).toMatchObject({
      event_shop_no: '2',
      product_no: product.product_no,
    });
  });

  it('records nothing for a refused write, and nothing while reception is off', async () => {
    const mall = await openMall('events-none');
    const refused = await mall.refused('updateProduct', {
      path: { product_no: 999_999 },
      body: { shop_no: 1, request: { product_name: 'Ghost' } },
    });
    expect(refused.reason).toBe('not-found');
    await mall.refused('createCategory', {
      body: { shop_no: 1, request: { category_name: 'Orphan', parent_category_no: 987_654 } },
    });
    await mall.admin('updateWebhookSetting', { body: { request: { reception_status: 'F' } } });
    await mall.createProduct({ product_name: 'Quiet lamp', supply_price: '1000.00' });
    expect(await claimAll(mall.malls.events, 'events-none')).toEqual([]);
    await mall.admin('updateWebhookSetting', { body: { request: { reception_status: 'T' } } });
    await mall.createProduct({ product_name: 'Loud lamp', supply_price: '1000.00' });
    expect((await claimAll(mall.malls.events, 'events-none')).map((claimed) => claimed.eventNo)).toEqual([
      90001,
    ]);
  });

  it('tells its listener that a mall recorded an event', async () => {
    const mall = await openMall('events-heard');
    const heard: string[] = [];
    mall.malls.events.onChange((mallId) => heard.push(mallId));
    await mall.createProduct({ product_name: 'Heard lamp', supply_price: '1000.00' });
    expect(heard).toContain('events-heard');
  });
});

describe('claims, attempts and the delivery log', () => {
  it('claims each event once under a lease, and again once the lease ends', async () => {
    const mall = await openMall('events-lease');
    await mall.createProduct({ product_name: 'Leased lamp', supply_price: '1000.00' });
    const { events } = mall.malls;
    const [first] = await events.claim('events-lease', 'a', now, lease, 1);
    expect(first).toMatchObject({ eventNo: 90001, attempt: 1, logType: 'G', owner: 'a' });
    expect(await events.claim('events-lease', 'b', now + lease - 1, lease, 1)).toEqual([]);
    expect(await events.nextDue('events-lease')).toBe(now + lease);
    const [again] = await events.claim('events-lease', 'b', now + lease, lease, 1);
    expect(again).toMatchObject({ seq: first?.seq, attempt: 2, logType: 'R', owner: 'b' });
    // The first dispatcher's late success is logged but leaves the event to the one holding it.
    await events.settle('events-lease', [
      { claimed: first as ClaimedEvent, attempt: accepted, retryAt: undefined },
    ]);
    expect(await events.nextDue('events-lease')).toBe(now + 2 * lease);
  });

  it('claims at most the number asked, oldest first', async () => {
    const mall = await openMall('events-batch');
    for (const name of ['One', 'Two', 'Three']) await mall.createCategory({ category_name: name });
    const { events } = mall.malls;
    const names = (claimed: ClaimedEvent[]) =>
      claimed.map((event) => JSON.parse(event.body).resource.category_name);
    expect(names(await events.claim('events-batch', owner, now, lease, 2))).toEqual(['One', 'Two']);
    expect(names(await events.claim('events-batch', owner, now, lease, 2))).toEqual(['Three']);
  });

  it('logs every attempt, retries when asked and answers the log by its declared filters', async () => {
    const mall = await openMall('events-log');
    const product = await mall.createProduct({ product_name: 'Logged lamp', supply_price: '1000.00' });
    await mall.createCategory({ category_name: 'Logged shelf' });
    const { events } = mall.malls;
    const [productEvent, categoryEvent] = await claimAll(events, 'events-log');
    await events.settle('events-log', [
      { claimed: productEvent as ClaimedEvent, attempt: failed, retryAt: now + 1_000 },
    ]);
    await events.settle('events-log', [
      { claimed: categoryEvent as ClaimedEvent, attempt: accepted, retryAt: undefined },
    ]);
    expect(await events.claim('events-log', owner, now + 999, lease, 1)).toEqual([]);
    const [retry] = await events.claim('events-log', owner, now + 1_000, lease, 1);
    expect(retry).toMatchObject({ eventNo: 90001, attempt: 2, logType: 'R' });
    await events.settle('events-log', [
      {
        claimed: retry as ClaimedEvent,
        attempt: { ...accepted, requestedAt: now + 1_000 },
        retryAt: now + 5_000,
      },
    ]);
    expect(await events.nextDue('events-log')).toBeUndefined();

    const { logs } = await mall.admin('listWebhookLogs');
    expect(
      logs.map((log: Body) => [log.event_no, log.log_type, log.success, log.response_http_code]),
    ).toEqual([
      [90001, 'G', 'F', 500],
      [90042, 'G', 'T', 200],
      [90001, 'R', 'T', 200],
    ]);
    expect(logs[0]).toMatchObject({
      mall_id: 'events-log',
      trace_id: logs[2].trace_id,
      request_endpoint: accepted.endpoint,
      requested_time: '2026-05-01T09:00:00+09:00',
      response_body: 'down',
    });
    expect(JSON.parse(logs[0].request_body).resource.product_no).toBe(product.product_no);
    const ids = (query: Body) =>
      mall.admin('listWebhookLogs', { query }).then((answer) => answer.logs.map((log: Body) => log.log_id));
    expect(await ids({ success: 'F' })).toEqual([logs[0].log_id]);
    expect(await ids({ log_type: 'R' })).toEqual([logs[2].log_id]);
    expect(await ids({ event_no: 90042 })).toEqual([logs[1].log_id]);
    expect(await ids({ since_log_id: logs[0].log_id })).toEqual([logs[1].log_id, logs[2].log_id]);
    expect(await ids({ limit: 1 })).toEqual([logs[0].log_id]);
    expect(await ids({ requested_start_date: '2026-05-02' })).toEqual([]);
    expect(await ids({ requested_end_date: '2026-05-01' })).toHaveLength(3);
  });

  it('resends a logged delivery and test-sends an event sample, each logged as such', async () => {
    const mall = await openMall('events-resend');
    await mall.createProduct({ product_name: 'Resent lamp', supply_price: '1000.00' });
    const { events } = mall.malls;
    const [original] = await claimAll(events, 'events-resend');
    await events.settle('events-resend', [
      { claimed: original as ClaimedEvent, attempt: accepted, retryAt: undefined },
    ]);
    const [logged] = (await mall.admin('listWebhookLogs')).logs as Body[];
    expect(await events.resend('events-resend', logged?.log_id)).toBe(true);
    expect(await events.resend('events-resend', 'no-such-log')).toBe(false);
    expect(await events.sendTest('events-resend', 90044)).toBe(true);
    expect(await events.sendTest('events-resend', 12_345)).toBe(false);
    expect(await events.sendTest('never-made', 90044)).toBe(false);
    const [resent, test] = await claimAll(events, 'events-resend');
    expect(resent).toMatchObject({ eventNo: 90001, logType: 'R', body: original?.body });
    expect(test).toMatchObject({ eventNo: 90044, logType: 'T' });
    (await eventSchemas())(JSON.parse(test?.body ?? '{}'));
  });
});

describe('the registered receiver', () => {
  it('is kept with the mall, starting it, and goes with a reset or a restore', async () => {
    const mall = await openMall('events-receiver');
    const { events } = mall.malls;
    expect(await events.receiverOf('events-receiver')).toBeUndefined();
    await events.register('events-receiver', { url: 'http://127.0.0.1:9/hook', key: 'k' });
    expect(await mall.malls.mallIds()).toContain('events-receiver');
    expect(await events.receiverOf('events-receiver')).toEqual({ url: 'http://127.0.0.1:9/hook', key: 'k' });
    const snapshot = await mall.malls.snapshot('events-receiver');
    await events.register('events-receiver', { url: 'http://127.0.0.1:8/hook' });
    expect(await events.receiverOf('events-receiver')).toEqual({ url: 'http://127.0.0.1:8/hook' });
    await mall.malls.restore('events-receiver', snapshot);
    expect(await events.receiverOf('events-receiver')).toBeUndefined();
    await events.register('events-receiver', { url: 'http://127.0.0.1:8/hook' });
    await mall.malls.reset('events-receiver');
    expect(await events.receiverOf('events-receiver')).toBeUndefined();
    await events.register('events-receiver', { url: 'http://127.0.0.1:8/hook' });
    await events.register('events-receiver', undefined);
    expect(await events.receiverOf('events-receiver')).toBeUndefined();
  });
});

describe('the outbox on SQLite', () => {
  it('keeps a committed write’s event and the registered receiver across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-events-'));
    dirs.push(dataDir);
    const specs = await shippedSpecs();
    const first = await createSandboxMalls({
      storage: await openStorage({ dataDir }),
      newMall: 'empty',
      specs,
    });
    const product = await mallCalls(first, 'kept', specs).createProduct({
      product_name: 'Kept lamp',
      supply_price: '1000.00',
    });
    await first.events.register('kept', { url: 'http://127.0.0.1:9/hook' });
    await first.close();
    const second = await createSandboxMalls({
      storage: await openStorage({ dataDir }),
      newMall: 'empty',
      specs,
    });
    try {
      const [kept] = await claimAll(second.events, 'kept');
      expect(await second.events.receiverOf('kept')).toEqual({ url: 'http://127.0.0.1:9/hook' });
      expect(JSON.parse(kept?.body ?? '{}').resource.product_no).toBe(product.product_no);
    } finally {
      await second.close();
    }
  });
});
