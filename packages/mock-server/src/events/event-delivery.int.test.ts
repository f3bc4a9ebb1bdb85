// Event delivery on a real HTTP receiver (node:http on a free loopback port): each event the spec
// says the sandbox sends arrives, POSTed as JSON with the webhook key, after admin calls over HTTP;
// a failing receiver is retried with backoff until it accepts or the attempts run out, each attempt
// in `listWebhookLogs`; a hanging one costs its timeout and never holds the API; a logged delivery
// is resent and a test event sent; a refused write sends nothing; `verify` counts a mall's deliveries
// through the control API; the mall's fault rules on deliveries delay, drop or duplicate them; a
// receiver off this machine and its private networks is refused; a claimed batch whose every
// delivery waits the longest delay a fault may hold one is sent once, though another dispatcher
// looks while the claim holds; a server starting on SQLite delivers the events a stopped one left
// for a mall's stored receiver. Retries, timeouts and delays wait on the test's own timers.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxEvents, WebhookReceiver } from '@mall-api/sandbox/protocol';
import { loadSpec, webhooksOf } from '@mall-api/spec-model';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliveryDelayBound } from '../control/control-rules.js';
import { type ControlError, createControlClient, type FaultRequest } from '../qa/control-client.js';
import { testWebhookKey } from '../qa/event-receiver.js';
import { startMock } from '../qa/start-mock.js';
import type { StartedMock } from '../qa/started-mock.js';
import { startMockServers } from '../server/mock-server.js';
import { createReceivers } from './event-delivery.js';
import { claimBatchSize, createEventDispatcher, type DispatchTimers } from './event-dispatcher.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here
type Body = Record<string, any>;

/** Timers the test moves by hand. */
function manualTimers(start = Date.parse('2026-05-01T00:00:00Z')) {
  let now = start;
  const pending = new Set<{ at: number; run: () => void }>();
  const timers: DispatchTimers & { advance(ms: number): void; waitsUntil(at: number): boolean } = {
    now: () => now,
    waitsUntil: (at) => [...pending].some((timer) => timer.at === at),
    after(ms, run) {
      const timer = { at: now + ms, run };
      pending.add(timer);
      return () => pending.delete(timer);
    },
    advance(ms) {
      now += ms;
      for (const timer of [...pending].sort((a, b) => a.at - b.at))
        if (timer.at <= now) {
          pending.delete(timer);
          timer.run();
        }
    },
  };
  return timers;
}

/** A receiver whose answer the test sets: a status, or `hang` (no answer at all). */
async function scriptedReceiver() {
  const bodies: Body[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const hanging: ServerResponse[] = [];
  const waiting = new Set<() => void>();
  let mode: number | 'hang' = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      headers.push(request.headers);
      for (const wake of waiting) wake();
      if (mode === 'hang') hanging.push(response);
      else response.writeHead(mode).end(mode === 200 ? 'thanks' : 'broken');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    headers,
    /** Resolves once `count` events have arrived. */
    arrived: (count: number) =>
      new Promise<void>((resolve) => {
        const wake = () => {
          if (bodies.length < count) return;
          waiting.delete(wake);
          resolve();
        };
        waiting.add(wake);
        wake();
      }),
    set: (next: number | 'hang') => {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const admin = (
  operationId: string,
  mallId: string,
  parts: { path?: Body; body?: unknown; query?: Body } = {},
) => ({
  api: 'admin' as const,
  operationId,
  path: parts.path ?? {},
  query: parts.query ?? {},
  body: parts.body,
  mallId,
});

describe('startMock({ events: true }): each event the sandbox sends, over HTTP', () => {
  let mock: StartedMock;
  let token: string;
  beforeAll(async () => {
    mock = await startMock({ apis: ['admin'], events: true });
    token = (await mock.token('hooks')).access_token;
  }, 60_000);
  afterAll(() => mock?.close());

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${mock.mallUrl('admin', 'hooks')}/api/v2/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Body };
  };

  it('delivers one event per reported write, with the record’s values, as JSON with the webhook key', async () => {
    const category = (await call('POST', '/categories', { request: { category_name: 'Hooks' } })).body
      .category;
    await call('PUT', `/categories/${category.category_no}`, { request: { category_name: 'Hooks & rails' } });
    const product = (
      await call('POST', '/products', {
        request: { product_name: 'Rail hook', supply_price: '100.00', price: '120.00' },
      })
    ).body.product;
    await call('PUT', `/products/${product.product_no}`, { request: { product_name: 'Brass rail hook' } });
    await call('DELETE', `/products/${product.product_no}`);
    await call('DELETE', `/categories/${category.category_no}`);

    const shop = { mall_id: 'hooks', event_shop_no: '1' };
    const arrived = [
      await mock.events.next({ event_no: 90042, match: { ...shop, category_no: category.category_no } }),
      await mock.events.next({ event_no: 90043, match: { category_name: 'Hooks & rails' } }),
      await mock.events.next({ event_no: 90001, match: { ...shop, product_no: product.product_no } }),
      await mock.events.next({ event_no: 90002, match: { product_name: 'Brass rail hook' } }),
      await mock.events.next({ event_no: 90003, match: { product_code: product.product_code } }),
      await mock.events.next({ event_no: 90044, match: { category_no: category.category_no } }),
    ];
    // Every event the spec says the sandbox sends was sent.
    const { loadSpecs } = await import('@mall-api/spec-model');
    const sent = webhooksOf((await loadSpecs()).admin.document).filter((event) => event.emittedBy.length > 0);
    expect(new Set(arrived.map((event) => event.event_no))).toEqual(
      new Set(sent.map((event) => event.eventNo)),
    );
    for (const event of arrived) {
      expect(event.headers['content-type']).toBe('application/json');
      expect(event.headers['x-api-key']).toBe(testWebhookKey);
    }
    // Events arrive in commit order.
    expect(mock.events.received.map((event) => event.event_no)).toEqual([
      90042, 90043, 90001, 90002, 90003, 90044,
    ]);
    const { body } = await call('GET', '/webhooks/logs');
    expect(body.logs.map((log: Body) => [log.event_no, log.log_type, log.success])).toEqual(
      [90042, 90043, 90001, 90002, 90003, 90044].map((eventNo) => [eventNo, 'G', 'T']),
    );
  });

  it('sends nothing for a refused write', async () => {
    const before = mock.events.received.length;
    const refused = await call('PUT', '/products/987654', { request: { product_name: 'Nothing' } });
    expect(refused.status).toBe(404);
    await call('POST', '/categories', { request: { category_name: 'Marker' } });
    await mock.events.next({ event_no: 90042, match: { category_name: 'Marker' } });
    expect(mock.events.received.slice(before).map((event) => event.event_no)).toEqual([90042]);
  });

  it('verifies deliveries by event, kind and outcome once those under way are done', async () => {
    const before = (await mock.control.deliveries('hooks', { event_no: 90001 })).length;
    await call('POST', '/products', { request: { product_name: 'Verified hook', supply_price: '10.00' } });
    // No wait for the receiver: verify reads the log once the delivery under way is done.
    const matched = await mock.control.verify('hooks', {
      deliveries: { event_no: 90001, log_type: 'G', success: 'T', count: before + 1 },
    });
    expect(JSON.parse(matched.at(-1)?.request_body ?? '{}').resource.product_name).toBe('Verified hook');
    expect(matched.at(-1)?.request_endpoint).toBe(mock.events.url);
    await mock.control.verify('hooks', { deliveries: { success: 'F', count: 0 } });
    await mock.control.verify('never-used', { deliveries: { count: 0 } });
    await expect(
      mock.control.verify('hooks', { deliveries: { event_no: 90001, log_type: 'T', count: 1 } }),
    ).rejects.toThrow(
      /Expected exactly 1 delivery\(ies\) matching .* found 0\. The latest of the \d+ delivery\(ies\) of the mall:\n {2}log \d+: event 90001 \(G\)/,
    );
    const refused = await fetch(`${mock.urls.admin}/__mock/malls/hooks/webhooks/deliveries?log_type=X`);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as Body).error.more_info.violations).toEqual([
      expect.objectContaining({ name: 'log_type' }),
    ]);
  });
});

describe('the control API’s event operations', () => {
  let mock: StartedMock;
  let own: Awaited<ReturnType<typeof scriptedReceiver>>;
  beforeAll(async () => {
    mock = await startMock({ apis: ['admin'] });
    own = await scriptedReceiver();
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    await own?.close();
  });
  const control = async (method: string, path: string, body?: unknown, mallId = 'ctl') => {
    const response = await fetch(`${mock.urls.admin}/__mock/malls/${mallId}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Body };
  };

  it('registers a receiver, refusing a URL or host not allowed with a 422 naming url', async () => {
    for (const url of ['not a url', 'http://example.com/hook']) {
      const refused = await control('PUT', '/webhooks/receiver', { url });
      expect(refused.status).toBe(422);
      expect(refused.body.error.more_info.violations).toEqual([expect.objectContaining({ name: 'url' })]);
    }
    const missing = await control('PUT', '/webhooks/receiver', { key: 'k' });
    expect(missing.status).toBe(422);
    const registered = await control('PUT', '/webhooks/receiver', { url: own.url, key: 'ctl-key' });
    expect(registered).toEqual({ status: 200, body: { url: own.url, key: 'ctl-key' } });
  });

  it('test-sends an event’s sample and resends a logged delivery', async () => {
    const unknown = await control('POST', '/webhooks/test', { event_no: 12345 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.more_info.violations).toEqual([expect.objectContaining({ name: 'event_no' })]);
    // A mall does not exist until it is used (registering a receiver uses it).
    expect((await control('POST', '/webhooks/test', { event_no: 90044 }, 'unused')).status).toBe(404);
    const token = (await mock.token('ctl')).access_token;
    const logs = async () =>
      (
        (await (
          await fetch(`${mock.mallUrl('admin', 'ctl')}/api/v2/admin/webhooks/logs`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as Body
      ).logs as Body[];
    expect(await logs()).toEqual([]);
    expect(await control('POST', '/webhooks/test', { event_no: 90044 })).toEqual({
      status: 202,
      body: { queued: true },
    });
    await own.arrived(1);
    // The attempt is logged once the receiver's answer is in (the test's timeout bounds the wait;
    // the mall's rate limit is emptied before each read, so the reads are never refused).
    let entries: Body[] = [];
    while (entries.length === 0) {
      await mock.control.resetRateLimits('ctl');
      entries = await logs();
    }
    expect(entries.map((entry) => [entry.event_no, entry.log_type, entry.success])).toEqual([
      [90044, 'T', 'T'],
    ]);
    expect(own.bodies.at(-1)?.event_no).toBe(90044);
    expect(own.headers.at(-1)?.['x-api-key']).toBe('ctl-key');
    expect(await control('POST', `/webhooks/logs/${entries[0]?.log_id}/resend`)).toEqual({
      status: 202,
      body: { queued: true },
    });
    expect((await control('POST', '/webhooks/logs/999/resend')).status).toBe(404);
    // The same through startMock's control client.
    await mock.control.resendDelivery('ctl', String(entries[0]?.log_id));
    await mock.control.sendTestEvent('ctl', 90001);
    await own.arrived(4);
    expect(own.bodies.slice(-3).map((body) => body.event_no)).toEqual([90044, 90044, 90001]);
    await expect(mock.control.setWebhookReceiver('ctl', 'http://example.com/hook')).rejects.toThrow(
      /422|private/,
    );
  });
});

type ScriptedReceiver = Awaited<ReturnType<typeof scriptedReceiver>>;
type Served = Awaited<ReturnType<typeof startMockServers>>;

/** Delivery policy of the describe blocks on the test's timers. */
const policy = { timeoutMs: 2_000, maxAttempts: 3, backoffMs: 1_000 };

/**
 * A scripted receiver and an admin mock on the sandbox whose events run on the test's timers,
 * started before a describe block's tests and closed after them; with `registered`, the mock sends
 * every event to the receiver under `policy`, otherwise events wait for a dispatcher to take them.
 */
function adminMockOnTimers(registered: boolean) {
  const live = { timers: manualTimers() } as {
    timers: ReturnType<typeof manualTimers>;
    receiver: ScriptedReceiver;
    served: Served;
  };
  beforeAll(async () => {
    live.receiver = await scriptedReceiver();
    live.served = await startMockServers({
      apis: ['admin'],
      ports: { admin: 0 },
      sandbox: {},
      events: registered
        ? { receiver: { url: live.receiver.url, key: 'k-1' }, timers: live.timers, policy }
        : { timers: live.timers },
    });
  }, 60_000);
  afterAll(async () => {
    await live.served?.close();
    await live.receiver?.close();
  });
  return live;
}

describe('retries, timeouts, resends and test sends (the test’s timers)', () => {
  const live = adminMockOnTimers(true);
  afterEach(() => live.receiver.set(200));

  const sandbox = () => live.served.sandbox as NonNullable<typeof live.served.sandbox>;
  const delivery = () => live.served.events as NonNullable<typeof live.served.events>;
  const logs = async (mallId: string, query: Body = {}) =>
    ((await sandbox().handle(admin('listWebhookLogs', mallId, { query }))) as { body: Body }).body
      .logs as Body[];
  const createProduct = async (mallId: string, name: string) =>
    (
      (await sandbox().handle(
        admin('createProduct', mallId, { body: { request: { product_name: name, supply_price: '10.00' } } }),
      )) as { body: Body }
    ).body.product;

  it('retries a failing receiver after a doubling backoff until it accepts, logging each attempt', async () => {
    live.receiver.set(500);
    const product = await createProduct('retry', 'Flaky hook');
    await delivery().dispatcher.idle();
    expect((await logs('retry')).map((log) => [log.log_type, log.success, log.response_http_code])).toEqual([
      ['G', 'F', 500],
    ]);
    live.timers.advance(999);
    await delivery().dispatcher.idle();
    expect(await logs('retry')).toHaveLength(1);
    live.timers.advance(1);
    await delivery().dispatcher.idle();
    expect(await logs('retry')).toHaveLength(2);
    live.receiver.set(200);
    live.timers.advance(2_000);
    await delivery().dispatcher.idle();
    const log = await logs('retry');
    expect(log.map((entry) => [entry.log_type, entry.success, entry.response_http_code])).toEqual([
      ['G', 'F', 500],
      ['R', 'F', 500],
      ['R', 'T', 200],
    ]);
    expect(new Set(log.map((entry) => entry.trace_id)).size).toBe(1);
    expect(JSON.parse(log[2]?.request_body).resource.product_no).toBe(product.product_no);
    expect(live.receiver.headers.at(-1)?.['x-api-key']).toBe('k-1');
    expect(await logs('retry', { success: 'F' })).toHaveLength(2);
  });

  it('delays, drops and duplicates deliveries as the mall’s fault rules say', async () => {
    const control = createControlClient(live.served.mocks[0]?.url as string);
    const onDeliveries = { api: 'webhooks' as const, event_no: 90001 };
    // A fault on requests only, which deliveries ignore.
    await control.addFault('faulty', { action: { kind: 'delay', minMs: 60_000 } });
    await control.addFault('faulty', { match: onDeliveries, action: { kind: 'duplicate' }, times: 1 });
    await control.addFault('faulty', { match: onDeliveries, action: { kind: 'drop' }, times: 1 });
    await control.addFault('faulty', {
      match: onDeliveries,
      action: { kind: 'delay', minMs: 5_000 },
      times: 1,
    });
    const before = live.receiver.bodies.length;
    const twice = await createProduct('faulty', 'Twice hook');
    await delivery().dispatcher.idle();
    expect(live.receiver.bodies.slice(before).map((body) => body.resource.product_no)).toEqual([
      twice.product_no,
      twice.product_no,
    ]);
    await createProduct('faulty', 'Lost hook');
    await delivery().dispatcher.idle();
    expect(live.receiver.bodies).toHaveLength(before + 2);
    const start = live.timers.now();
    const late = await createProduct('faulty', 'Late hook');
    while (!live.timers.waitsUntil(start + 5_000)) await new Promise((resolve) => setImmediate(resolve));
    expect(live.receiver.bodies).toHaveLength(before + 2);
    live.timers.advance(5_000);
    await delivery().dispatcher.idle();
    expect(live.receiver.bodies.at(-1)?.resource.product_no).toBe(late.product_no);
    expect(
      (await logs('faulty')).map((log) => [JSON.parse(log.request_body).resource.product_name, log.success]),
    ).toEqual([
      ['Twice hook', 'T'],
      ['Twice hook', 'T'],
      ['Lost hook', 'F'],
      ['Late hook', 'T'],
    ]);
    // The lost one is not retried.
    live.timers.advance(60_000);
    await delivery().dispatcher.idle();
    expect(await logs('faulty')).toHaveLength(4);
  });

  it('refuses a fault mixing deliveries and requests, naming the key', async () => {
    const control = createControlClient(live.served.mocks[0]?.url as string);
    for (const [fault, name] of [
      [{ action: { kind: 'duplicate' } }, 'action.kind'],
      [{ match: { event_no: 90001 }, action: { kind: 'drop' } }, 'match.event_no'],
      [
        { match: { api: 'webhooks', operationId: 'createProduct' }, action: { kind: 'drop' } },
        'match.operationId',
      ],
      [{ match: { api: 'webhooks' }, action: { kind: 'status', status: 500 } }, 'action.kind'],
    ] as const) {
      const refused = await control
        .addFault('mixed', fault as FaultRequest)
        .catch((error: ControlError) => error);
      expect(refused).toMatchObject({ status: 422, violations: [expect.objectContaining({ name })] });
    }
    expect(await control.faults('mixed')).toEqual([]);
  });

  it('stops after the last attempt', async () => {
    live.receiver.set(503);
    await createProduct('give-up', 'Dead hook');
    await delivery().dispatcher.idle();
    for (const wait of [1_000, 2_000, 4_000, 8_000]) {
      live.timers.advance(wait);
      await delivery().dispatcher.idle();
    }
    expect((await logs('give-up')).map((entry) => entry.success)).toEqual(['F', 'F', 'F']);
    expect(await sandbox().events.nextDue('give-up')).toBeUndefined();
  });

  it('a hanging receiver costs its timeout, and the API answers meanwhile', async () => {
    live.receiver.set('hang');
    await createProduct('hang', 'Slow hook');
    // The delivery hangs; the mall keeps answering reads and writes.
    await expect(createProduct('hang', 'Second hook')).resolves.toMatchObject({
      product_name: 'Second hook',
    });
    const listed = await sandbox().handle(admin('countProducts', 'hang'));
    expect(listed).toMatchObject({ ok: true, body: { count: expect.any(Number) } });
    expect(await logs('hang')).toEqual([]);
    live.receiver.set(200);
    live.timers.advance(policy.timeoutMs);
    await delivery().dispatcher.idle();
    const [timedOut] = await logs('hang');
    expect(timedOut).toMatchObject({ success: 'F', response_http_code: null, response_body: null });
  });

  it('resends a logged delivery and sends a test event', async () => {
    await createProduct('resend', 'Resent hook');
    await delivery().dispatcher.idle();
    const [first] = await logs('resend');
    expect(await sandbox().events.resend('resend', first?.log_id)).toBe(true);
    expect(await sandbox().events.sendTest('resend', 90001)).toBe(true);
    await delivery().dispatcher.idle();
    const entries = await logs('resend');
    expect(entries.map((entry) => [entry.event_no, entry.log_type, entry.success])).toEqual([
      [90001, 'G', 'T'],
      [90001, 'R', 'T'],
      [90001, 'T', 'T'],
    ]);
    expect(entries[1]?.request_body).toBe(first?.request_body);
    expect(await logs('resend', { log_type: 'T' })).toHaveLength(1);
  });
});

describe('the longest delivery delay within a claim (the test’s timers)', () => {
  // No receiver registered: the events wait until the test's two dispatchers take them.
  const live = adminMockOnTimers(false);

  it('a batch of deliveries each delayed the longest is sent once, though another dispatcher looks meanwhile', async () => {
    const longest = deliveryDelayBound(await loadSpec('control'));
    const sandbox = live.served.sandbox as NonNullable<typeof live.served.sandbox>;
    for (let product = 1; product <= claimBatchSize; product++)
      await sandbox.handle(
        admin('createProduct', 'late', {
          body: { request: { product_name: `Late ${product}`, supply_price: '1.00' } },
        }),
      );
    const dispatcher = () =>
      createEventDispatcher({
        events: sandbox.events,
        receiverOf: async () => ({ url: live.receiver.url }),
        faultOf: async () => ({ kind: 'delay', minMs: longest, maxMs: longest }),
        timers: live.timers,
        policy,
        maxDelayMs: longest,
      });
    const [first, second] = [dispatcher(), dispatcher()];
    first.kick('late');
    for (let sent = 0; sent < claimBatchSize; sent++) {
      const at = live.timers.now() + longest;
      while (!live.timers.waitsUntil(at)) await new Promise((resolve) => setImmediate(resolve));
      // The first holds its claim while it waits: the second finds nothing to send.
      second.kick('late');
      await second.idle();
      expect(live.receiver.bodies).toHaveLength(sent);
      live.timers.advance(longest);
      await live.receiver.arrived(sent + 1);
    }
    await first.idle();
    second.kick('late');
    await second.idle();
    expect(live.receiver.bodies.map((body) => body.resource.product_name)).toEqual(
      Array.from({ length: claimBatchSize }, (_, index) => `Late ${index + 1}`),
    );
    await Promise.all([first.close(), second.close()]);
  });

  it('refuses a delivery delay beyond the longest, naming the key', async () => {
    const control = createControlClient(live.served.mocks[0]?.url as string);
    const longest = deliveryDelayBound(await loadSpec('control'));
    const refused = await control
      .addFault('late', {
        match: { api: 'webhooks' },
        action: { kind: 'delay', minMs: 0, maxMs: longest + 1 },
      })
      .catch((error: ControlError) => error);
    expect(refused).toMatchObject({
      status: 422,
      violations: [expect.objectContaining({ name: 'action.maxMs' })],
    });
    expect(await control.faults('late')).toEqual([]);
  });
});

describe('at start, on SQLite', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('delivers the events a stopped server left for a mall’s stored receiver', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mock-events-start-'));
    dirs.push(dataDir);
    const receiver = await scriptedReceiver();
    const options = { apis: ['admin' as const], ports: { admin: 0 }, sandbox: { store: { dataDir } } };
    try {
      // No receiver while the write records its event; the stored one is registered without a delivery.
      const first = await startMockServers(options);
      const sandbox = first.sandbox as NonNullable<typeof first.sandbox>;
      await sandbox.handle(
        admin('createProduct', 'left', {
          body: { request: { product_name: 'Left hook', supply_price: '1.00' } },
        }),
      );
      await sandbox.handle(
        admin('createProduct', 'quiet', {
          body: { request: { product_name: 'Quiet hook', supply_price: '1.00' } },
        }),
      );
      await sandbox.events.register('left', { url: receiver.url });
      expect(await sandbox.events.pending()).toEqual(['left', 'quiet']);
      await first.close();
      expect(receiver.bodies).toEqual([]);

      const second = await startMockServers(options);
      try {
        await receiver.arrived(1);
        await second.events?.dispatcher.idle();
        expect(receiver.bodies.map((body) => [body.resource.mall_id, body.resource.product_name])).toEqual([
          ['left', 'Left hook'],
        ]);
        // The mall without a receiver keeps its event.
        expect(await second.sandbox?.events.pending()).toEqual(['quiet']);
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
    }
  });
});

describe('receivers', () => {
  /** Registrations kept in a map, as a sandbox keeps them in its malls' stores. */
  const kept = (): Pick<SandboxEvents, 'receiverOf' | 'register'> => {
    const map = new Map<string, WebhookReceiver>();
    return {
      receiverOf: async (mallId) => map.get(mallId),
      register: async (mallId, receiver) => {
        if (receiver) map.set(mallId, receiver);
      },
    };
  };
  it('are refused off this machine and its private networks unless any host is allowed', async () => {
    const receivers = createReceivers(kept());
    expect(await receivers.register('m', { url: 'http://example.com/hook' })).toMatch(/private network/);
    expect(await receivers.register('m', { url: 'http://8.8.8.8/hook' })).toMatch(/private network/);
    expect(await receivers.register('m', { url: 'not a url' })).toMatch(/absolute http/);
    expect(await receivers.register('m', { url: 'ftp://127.0.0.1/hook' })).toMatch(/http or https/);
    expect(await receivers.of('m')).toBeUndefined();
    for (const url of [
      'http://127.0.0.1:9/h',
      'http://localhost/h',
      'http://10.1.2.3/h',
      'http://[::1]:8/h',
      'https://192.168.0.9/h',
    ])
      expect(await receivers.register('m', { url }), url).toBeUndefined();
    expect(await receivers.of('m')).toEqual({ url: 'https://192.168.0.9/h' });
    expect(
      await createReceivers(kept(), { anyTarget: true }).register('m', { url: 'https://example.com/hook' }),
    ).toBeUndefined();
    expect(() => createReceivers(kept(), { receiver: { url: 'http://example.com/' } })).toThrow(
      /private network/,
    );
  });
});
