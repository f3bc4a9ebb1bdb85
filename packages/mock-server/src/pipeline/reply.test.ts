// Writing a reply: a prepared body goes out byte for byte with its UTF-8 length, encoded once and
// sent again unchanged; the rate-limit headers replace any the reply carries.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { PreparedResponse } from '../responses/prepared-responses.js';
import { type Reply, sendReply } from './reply.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves `reply` to every request and resolves with the server's URL. */
async function serving(reply: Reply): Promise<string> {
  server = createServer((_request, response) => sendReply(response, reply, { 'x-ratelimit-limit': '40' }));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('sendReply', () => {
  it('sends a prepared body with non-ASCII text byte for byte, the same on every request', async () => {
    const payload = JSON.stringify({ category_name: '신상품 — été' });
    const prepared: PreparedResponse = { status: 200, headers: {}, contentType: 'application/json', payload };
    const url = await serving({
      status: 200,
      headers: { 'X-RateLimit-Limit': '1' },
      body: undefined,
      prepared,
    });
    for (let call = 0; call < 2; call++) {
      const response = await fetch(url);
      expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(payload)));
      expect(response.headers.get('x-ratelimit-limit')).toBe('40');
      expect(await response.text()).toBe(payload);
    }
  });
});
