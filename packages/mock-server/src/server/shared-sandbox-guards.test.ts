// A shared sandbox over HTTP: the control API and the OAuth endpoints refuse a DNS-rebound Host, the
// control API refuses other origins and every media type but JSON (the mall unchanged), sends no
// CORS headers, and request bodies over their limits are a 413 with the envelope, whether declared
// by Content-Length or sent chunked. A server bound off loopback refuses to start without a token.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { startMockServer, startMockServers } from './mock-server.js';

let served: Awaited<ReturnType<typeof startMockServers>>;
let base: URL;
const token = 'shared-sandbox-secret';

beforeAll(async () => {
  served = await startMockServers({
    apis: ['admin'],
    ports: { admin: 0 },
    sandbox: { seed: 1 },
    publicHosts: ['sandbox.example.com'],
    maxBodyBytes: 2048,
    control: { token, maxBodyBytes: 4096 },
  });
  base = new URL(served.mocks[0]?.url ?? '');
});
afterAll(() => served.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error?: { code: string; message: string } };
}

/** Sends a request with any Host and headers; `chunks` are written one by one (chunked unless a length is set). */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  chunks: readonly string[] = [],
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: base.hostname, port: base.port, method, path, headers: { host: base.host, ...headers } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: text ? JSON.parse(text) : {},
          }),
        );
      },
    );
    // The server may answer and close before every chunk is written; that is the point of a 413.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const control = { 'x-mock-control-token': token };
const faultCount = async (mall: string) =>
  ((await send('GET', `/__mock/malls/${mall}/faults`, control)).body as { faults: unknown[] }).faults.length;
const fault = JSON.stringify({ action: { kind: 'status', status: 503 } });

describe('DNS rebinding', () => {
  it('refuses control calls for a Host that is not this machine, and adds no fault', async () => {
    const answer = await send(
      'POST',
      '/__mock/malls/rebound/faults',
      { ...control, host: 'evil.example', 'content-type': 'application/json' },
      [fault],
    );
    expect(answer.status).toBe(403);
    expect(answer.body.error?.code).toBe('forbidden');
    expect(await faultCount('rebound')).toBe(0);
  });
  it('refuses the OAuth endpoints for such a Host, and issues no code', async () => {
    const query =
      'response_type=code&client_id=demo-app&redirect_uri=http://127.0.0.1:8765/callback&scope=mall.read_category&state=s';
    const rebound = await send('GET', `/api/v2/oauth/authorize?${query}`, { host: 'evil.example' });
    expect(rebound.status).toBe(403);
    expect(rebound.headers.location).toBeUndefined();
    const local = await send('GET', `/api/v2/oauth/authorize?${query}`, { host: 'qa1.localhost' });
    expect(local.status).toBe(302);
  });
  it('answers the configured public host and its mall subdomains', async () => {
    for (const host of ['sandbox.example.com', 'qa1.sandbox.example.com'])
      expect((await send('GET', '/__mock/malls', { ...control, host })).status, host).toBe(200);
  });
});

describe('cross-site requests', () => {
  it('refuses every media type but JSON with 415 and leaves the mall as it was', async () => {
    for (const type of [
      'application/x-www-form-urlencoded; x=+json',
      'text/plain',
      'multipart/form-data; boundary=b',
    ]) {
      const answer = await send('POST', '/__mock/malls/xsite/faults', { ...control, 'content-type': type }, [
        fault,
      ]);
      expect(answer.status, type).toBe(415);
      expect(answer.body.error?.code).toBe('unsupported_media_type');
    }
    expect(await faultCount('xsite')).toBe(0);
    const json = await send(
      'POST',
      '/__mock/malls/xsite/faults',
      { ...control, 'content-type': 'application/json; charset=utf-8' },
      [fault],
    );
    expect(json.status).toBe(201);
  });
  it('refuses a page of another origin and answers no CORS preflight', async () => {
    const headers = { ...control, origin: 'http://127.0.0.2:9000', 'content-type': 'application/json' };
    expect((await send('POST', '/__mock/malls/xorigin/faults', headers, [fault])).status).toBe(403);
    expect(await faultCount('xorigin')).toBe(0);
    const preflight = await send('OPTIONS', '/__mock/malls/xorigin/faults', {
      origin: 'http://127.0.0.2:9000',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
    const allowed = await send('GET', '/__mock/malls', { ...control, origin: 'http://localhost:8080' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('body limits', () => {
  const big = (bytes: number) => JSON.stringify({ to: 'x'.repeat(bytes) });
  it('answers a control body declared over its limit with 413 and closes the connection', async () => {
    const body = big(5000);
    const answer = await send(
      'POST',
      '/__mock/malls/limits/reset',
      { ...control, 'content-type': 'application/json', 'content-length': String(body.length) },
      [body],
    );
    expect(answer.status).toBe(413);
    expect(answer.body.error?.code).toBe('payload_too_large');
    expect(answer.headers.connection).toBe('close');
  });
  it('answers a chunked control body with 413 once it passes the limit', async () => {
    const chunks = ['{"to":"', ...Array.from({ length: 8 }, () => 'x'.repeat(1000)), '"}'];
    const answer = await send(
      'POST',
      '/__mock/malls/limits/reset',
      { ...control, 'content-type': 'application/json' },
      chunks,
    );
    expect(answer.status).toBe(413);
  });
  it('answers an API body over its limit with 413 and the envelope, a smaller one as usual', async () => {
    const bearer = `Bearer ${(await issueDemoTokens(served.authority, ['mall.write_category'], 'limits')).access_token}`;
    const write = (name: string) =>
      send(
        'POST',
        '/__mall/limits/api/v2/admin/categories',
        { authorization: bearer, 'content-type': 'application/json' },
        [JSON.stringify({ shop_no: 1, request: { category_name: name } })],
      );
    const over = await write('x'.repeat(3000));
    expect(over.status).toBe(413);
    expect(over.body.error?.code).toBe('payload_too_large');
    expect((await write('Limits')).status).toBe(201);
  });
});

describe('listening off loopback', () => {
  it('refuses to start without a control token', async () => {
    await expect(startMockServer({ api: 'collection', port: 0, host: '0.0.0.0' })).rejects.toThrow(
      /control token/,
    );
  });
});
