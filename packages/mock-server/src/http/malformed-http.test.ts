// What the HTTP parser refuses, sent as raw bytes over a socket to a running mock: oversized
// headers (431), a URL longer than the header limit (414), bad framing (400), a method HTTP does
// not know (501), bytes that are no request line (400), CONNECT (501), an HTTP/1.1 request without
// Host (400 naming it) — each answered with the API's error envelope and the connection closed;
// a client that closes the connection mid-body is logged as aborted, never as a 500.
import { maxHeaderSize } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { startMockServers } from '../server/mock-server.js';
import { until } from '../testing/replica-set.js';
import { malformedAnswer } from './malformed-http.js';

const lines: string[] = [];
const errors: string[] = [];
let served: Awaited<ReturnType<typeof startMockServers>>;
let port: number;
let adminPort: number;

beforeAll(async () => {
  served = await startMockServers({
    apis: ['collection', 'admin'],
    ports: { collection: 0, admin: 0 },
    log: (line) => lines.push(line),
    logError: (line) => errors.push(line),
  });
  port = served.mocks[0]?.port ?? 0;
  adminPort = served.mocks[1]?.port ?? 0;
});
afterAll(async () => {
  await served.close();
});

/** Sends raw bytes and reads everything the server writes until it closes the connection. */
function exchange(bytes: string, to = port): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(bytes);
  });
}

/** The status line's code, the headers and the JSON body of a raw answer. */
function parsed(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: JSON.parse(body) as {
      error: { code: string; message: string; more_info: Record<string, unknown> };
    },
  };
}

const envelopeKeys = ['code', 'message', 'more_info'];

describe('requests the HTTP parser refuses', () => {
  it.each([
    [
      'headers over the limit',
      `GET /api/shops HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(maxHeaderSize)}\r\n\r\n`,
      431,
      'request_header_fields_too_large',
    ],
    [
      'a URL longer than the header limit',
      `GET /api/shops?q=${'a'.repeat(maxHeaderSize)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      414,
      'uri_too_long',
    ],
    [
      'a Content-Length that is no number',
      'POST /api/shops HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      400,
      'bad_request',
    ],
    [
      'two Content-Lengths',
      'POST /api/shops HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd',
      400,
      'bad_request',
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /api/shops HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'bad_request',
    ],
    [
      'a chunk size that is no number',
      'POST /api/shops HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n',
      400,
      'bad_request',
    ],
    ['an HTTP version that does not exist', 'GET /api/shops HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'bad_request'],
    ['bytes that are no request line', '\u0000\u0001garbage\r\n\r\n', 400, 'bad_request'],
    [
      'a method HTTP does not know',
      'FROBNICATE /api/shops HTTP/1.1\r\nHost: x\r\n\r\n',
      501,
      'not_implemented',
    ],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 501, 'not_implemented'],
  ])('answers %s with the envelope and closes', async (_case, bytes, status, code) => {
    const answer = parsed(await exchange(bytes));
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers.connection).toBe('close');
    expect(Object.keys(answer.body.error)).toEqual(envelopeKeys);
    expect(answer.body.error.code).toBe(code);
    expect(answer.body.error.message).not.toMatch(/at .*\.js/);
    expect(lines).toContain(`collection - - ${status} 0.0ms`);
  });

  it('answers an HTTP/1.1 request without Host with a 400 naming the header', async () => {
    const answer = parsed(await exchange('GET /api/shops HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('bad_request');
    expect(answer.body.error.more_info.violations).toEqual([
      { location: 'header', name: 'Host', message: 'is required' },
    ]);
  });

  it('still answers an HTTP/1.0 request without Host', async () => {
    const answer = await exchange('GET /__health HTTP/1.0\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('tells a URL over the limit from headers over it, and garbage from an unknown method', () => {
    const overflow = (raw: string) =>
      malformedAnswer(
        Object.assign(new Error('Parse Error: Header overflow'), {
          code: 'HPE_HEADER_OVERFLOW',
          rawPacket: Buffer.from(raw),
        }),
        100,
      ).status;
    expect(overflow(`GET /${'a'.repeat(200)}`)).toBe(414);
    expect(overflow(`GET /${'a'.repeat(200)} HTTP/1.1\r\nHost: x\r\n`)).toBe(414);
    expect(overflow(`GET / HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(200)}`)).toBe(431);
    // A later packet of a slowly sent request: which part overflowed is unknown, the headers' limit applies.
    expect(overflow('a'.repeat(200))).toBe(431);
    const method = (raw: string) =>
      malformedAnswer(
        Object.assign(new Error('Parse Error: Invalid method encountered'), {
          code: 'HPE_INVALID_METHOD',
          rawPacket: Buffer.from(raw),
        }),
        100,
      );
    expect(method('PURGE / HTTP/1.1\r\n')).toEqual({
      status: 501,
      message: 'The method PURGE is not implemented.',
    });
    expect(method('{"json": 1}').status).toBe(400);
  });
});

describe('a client that closes the connection mid-body', () => {
  it('is logged as aborted, not as a 500, and its write changes nothing', async () => {
    const token = (
      await issueDemoTokens(served.authority, ['mall.write_category', 'mall.read_category'], 'abortmall')
    ).access_token;
    const base = `http://127.0.0.1:${adminPort}/__mall/abortmall/api/v2/admin/categories`;
    const categories = async () =>
      (
        (await (await fetch(base, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          categories: unknown[];
        }
      ).categories;
    const before = await categories();
    const socket = connect(adminPort, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const body = JSON.stringify({ shop_no: 1, request: { category_name: 'Never finished' } });
    socket.write(
      `POST /__mall/abortmall/api/v2/admin/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 100}\r\n\r\n${body}`,
    );
    // Closed once the body has started arriving: the server is reading it when the client leaves.
    await new Promise((resolve) => socket.once('drain', resolve).write('', resolve));
    socket.destroy();
    await until(
      async () =>
        lines.some((line) =>
          line.includes('POST /__mall/abortmall/api/v2/admin/categories aborted by the client'),
        ),
      5_000,
    );
    expect(lines.filter((line) => line.includes('/api/v2/admin/categories') && / 500 /.test(line))).toEqual(
      [],
    );
    expect(errors).toEqual([]);
    expect(await categories()).toEqual(before);
  });
});
