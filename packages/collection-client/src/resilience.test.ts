// How the clients survive failures, over real HTTP against a local fault server: 5xx answers and
// dropped connections are retried with backoff (never before Retry-After), a hung server ends in a
// timeout error after `timeout`, a caller's abort stops the retries, errors are typed and name the
// spec's operationId, and every attempt is reported with its timings and without credentials.
import { type FaultServer, startFaultServer } from '@mall-api/test-support/fault-server';
import { afterEach, describe, expect, it } from 'vitest';
import { type ClientEvent, createCollectionClient, isMallApiError, MallApiError } from './index.js';

const envelope = (code: string, message: string) => ({ error: { code, message, more_info: {} } });
const shops = { shops: [{ shop_no: 1, shop_name: 'Blue Harbor' }] };
const unavailable = { status: 503, body: envelope('service_unavailable', 'The server is down.') };

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientOf = (
  url: string,
  extra: Parameters<typeof createCollectionClient>[0] extends infer O ? Partial<O> : never = {},
) =>
  createCollectionClient({
    clientId: 'demo-partner',
    clientSecret: 'demo-partner-secret',
    baseUrl: url,
    retryBackoff: { initialMs: 5, maxMs: 20 },
    ...extra,
  });

describe('retries of a failed GET', () => {
  it('answers 503 twice, then 200: three requests and the data', async () => {
    server = await startFaultServer((index) => (index < 2 ? unavailable : { status: 200, body: shops }));
    const { data, error } = await clientOf(server.url).GET('/api/shops');
    expect(data).toEqual(shops);
    expect(error).toBeUndefined();
    expect(server.requests.map((request) => request.path)).toEqual(Array(3).fill('/api/shops'));
  });

  it('retries 500, 504 and 408 too, but not 404, and gives up after maxRetries', async () => {
    const statuses = [500, 504, 408];
    server = await startFaultServer((index) => ({
      status: statuses[index] ?? 404,
      body: envelope('x', 'y'),
    }));
    const { error, response } = await clientOf(server.url, { maxRetries: 5 }).GET('/api/shops');
    expect(response.status).toBe(404);
    expect(error).toEqual(envelope('x', 'y'));
    expect(server.requests).toHaveLength(4);

    await server.close();
    server = await startFaultServer(() => unavailable);
    const last = await clientOf(server.url, { maxRetries: 2 }).GET('/api/shops');
    expect(last.response.status).toBe(503);
    expect(server.requests).toHaveLength(3);
  });

  it('a call may set its own maxRetries', async () => {
    server = await startFaultServer(() => unavailable);
    await clientOf(server.url).GET('/api/shops', { maxRetries: 0 });
    expect(server.requests).toHaveLength(1);
  });

  it('waits out Retry-After before the next attempt', async () => {
    server = await startFaultServer((index) =>
      index === 0 ? { ...unavailable, headers: { 'Retry-After': '1' } } : { status: 200, body: shops },
    );
    const { data } = await clientOf(server.url).GET('/api/shops');
    expect(data).toEqual(shops);
    const [first, second] = server.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it.each(['drop', 'drop-mid-body'] as const)(
    'retries when the connection is dropped (%s)',
    async (fault) => {
      server = await startFaultServer((index) => (index === 0 ? fault : { status: 200, body: shops }));
      const { data } = await clientOf(server.url).GET('/api/shops');
      expect(data).toEqual(shops);
      expect(server.requests).toHaveLength(2);
    },
  );

  it('stops retrying when the caller aborts, rejecting with the caller’s reason', async () => {
    server = await startFaultServer(() => ({ ...unavailable, headers: { 'Retry-After': '30' } }));
    const controller = new AbortController();
    const reason = new Error('the user left');
    setTimeout(() => controller.abort(reason), 200);
    const started = Date.now();
    await expect(clientOf(server.url).GET('/api/shops', { signal: controller.signal })).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('ends a call to a server that never answers with a timeout error after `timeout` per attempt', async () => {
    server = await startFaultServer(() => 'hang');
    const client = clientOf(server.url, { timeout: 300, maxRetries: 1 });
    const started = Date.now();
    const error = await client.GET('/api/shops').catch((caught: unknown) => caught);
    const elapsed = Date.now() - started;
    expect(isMallApiError(error, 'timeout')).toBe(true);
    expect(error).toMatchObject({
      kind: 'timeout',
      code: 'timeout',
      status: undefined,
      operationId: 'listShops',
      method: 'GET',
      path: '/api/shops',
      attempts: 2,
    });
    expect(elapsed).toBeGreaterThanOrEqual(600);
    expect(elapsed).toBeLessThan(5_000);
    expect((error as MallApiError).requestMs).toBeGreaterThanOrEqual(600);
    expect(server.requests).toHaveLength(2);
  });

  it('a call may set its own timeout', async () => {
    server = await startFaultServer(() => 'hang');
    const started = Date.now();
    await expect(
      clientOf(server.url, { timeout: 60_000 }).GET('/api/shops', { timeout: 100, maxRetries: 0 }),
    ).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a refused connection ends in a connection error after the retries', async () => {
    server = await startFaultServer(() => ({ status: 200 }));
    const url = server.url;
    await server.close();
    server = undefined;
    const error = await clientOf(url, { maxRetries: 1 })
      .GET('/api/shops')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MallApiError);
    expect(error).toMatchObject({ kind: 'connection', code: 'connection_failed', attempts: 2 });
  });
});

describe('typed errors', () => {
  it('throws a MallApiError for an error status when the client says throwOnError', async () => {
    server = await startFaultServer(() => ({
      status: 404,
      body: { error: { code: 'not_found', message: 'No such shop.', more_info: { shop_no: 9 } } },
    }));
    const error = await clientOf(server.url, { throwOnError: true, maxRetries: 0 })
      .GET('/api/shops')
      .catch((caught: unknown) => caught);
    expect(isMallApiError(error, 'not_found')).toBe(true);
    expect(error).toMatchObject({
      status: 404,
      code: 'not_found',
      moreInfo: { shop_no: 9 },
      operationId: 'listShops',
      message: 'GET /api/shops (listShops): answered 404: No such shop.',
    });
  });

  it('carries the response headers and the request ID the service sent', async () => {
    server = await startFaultServer(() => ({
      status: 404,
      headers: { 'X-Request-Id': 'req-7f3a', 'X-Api-Call-Limit': '3/40' },
      body: envelope('not_found', 'No such shop.'),
    }));
    const error = await clientOf(server.url, { throwOnError: true })
      .GET('/api/shops')
      .catch((caught: unknown) => caught);
    expect(isMallApiError(error, 'not_found')).toBe(true);
    expect((error as MallApiError).requestId).toBe('req-7f3a');
    expect((error as MallApiError).headers?.get('X-Api-Call-Limit')).toBe('3/40');
    // A plain-HTTP address is fine here: the collection spec states no x-https-only.
    expect(() =>
      createCollectionClient({ clientId: 'a', clientSecret: 'b', baseUrl: 'http://collection.example' }),
    ).not.toThrow();
  });

  it('returns { error } by default, and a call may ask to throw', async () => {
    server = await startFaultServer(() => ({ status: 422, body: envelope('invalid_parameter', 'limit') }));
    const client = clientOf(server.url);
    expect((await client.GET('/api/shops')).error).toEqual(envelope('invalid_parameter', 'limit'));
    await expect(client.GET('/api/shops', { throwOnError: true })).rejects.toMatchObject({
      kind: 'validation',
      status: 422,
    });
  });

  it('never puts credentials in the message, even when the server echoes them', async () => {
    server = await startFaultServer((_, request) => ({
      status: 401,
      body: envelope(
        'unauthorized',
        `rejected ${String(request.headers.authorization)} client_secret=s3cr3t`,
      ),
    }));
    const error = await clientOf(server.url)
      .GET('/api/shops', { throwOnError: true })
      .then(
        () => new Error('no error was thrown'),
        (caught: Error) => caught,
      );
    const basic = Buffer.from('demo-partner:demo-partner-secret').toString('base64');
    expect(error.message).not.toContain(basic);
    expect(error.message).not.toContain('s3cr3t');
    expect(error.message).toContain('Basic [redacted]');
  });
});

describe('events', () => {
  it('reports each attempt, the retry and the timings, with credentials redacted', async () => {
    server = await startFaultServer((index) => (index === 0 ? unavailable : { status: 200, body: shops }));
    const events: ClientEvent[] = [];
    await clientOf(server.url, { onEvent: (event) => events.push(event) }).GET('/api/shops');
    expect(events.map((event) => event.type)).toEqual([
      'request',
      'response',
      'retry',
      'request',
      'response',
    ]);
    expect(events[2]).toMatchObject({ reason: 'status', status: 503, attempt: 1, operationId: 'listShops' });
    expect(events[4]).toMatchObject({
      type: 'response',
      status: 200,
      attempt: 2,
      method: 'GET',
      path: '/api/shops',
    });
    const request = events[0] as Extract<ClientEvent, { type: 'request' }>;
    expect(request.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(events)).not.toContain('demo-partner-secret');
  });
});
