// The client a rate limit counts: the socket's peer unless it is a trusted proxy, then the
// right-most X-Forwarded-For hop that is not trusted; with no trusted proxies the header is
// ignored. At the function, and over HTTP: made-up headers from an untrusted peer fill one window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeRequest } from '../pipeline/testing/fake-request.js';
import { type RunningMock, startMockServer } from '../server/mock-server.js';
import { clientAddressOf } from './client-address.js';

const from = (remoteAddress: string, forwardedFor?: string) =>
  fakeRequest({
    url: '/',
    remoteAddress,
    ...(forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } }),
  });

describe('clientAddressOf', () => {
  it('ignores X-Forwarded-For when no proxy is trusted, even from loopback', () => {
    const client = clientAddressOf();
    expect(client(from('127.0.0.1', '203.0.113.7'))).toBe('127.0.0.1');
    expect(client(from('::1', '203.0.113.7'))).toBe('::1');
    expect(client(from('198.51.100.4'))).toBe('198.51.100.4');
  });

  it('takes the right-most hop that is not a trusted proxy', () => {
    const client = clientAddressOf(['10.0.0.0/8', '192.0.2.1']);
    expect(client(from('10.1.2.3', '203.0.113.7'))).toBe('203.0.113.7');
    // A made-up left-most hop is not believed: the trusted proxy's own peer is the client.
    expect(client(from('10.1.2.3', '1.2.3.4, 203.0.113.7'))).toBe('203.0.113.7');
    // Through two trusted proxies, the hop before them.
    expect(client(from('10.1.2.3', '1.2.3.4, 203.0.113.7, 192.0.2.1'))).toBe('203.0.113.7');
    // Every hop trusted: the left-most one.
    expect(client(from('10.1.2.3', '10.9.9.9, 192.0.2.1'))).toBe('10.9.9.9');
  });

  it('ignores the header from a peer that is not trusted', () => {
    const client = clientAddressOf(['10.0.0.0/8']);
    expect(client(from('198.51.100.4', '10.0.0.1, 203.0.113.7'))).toBe('198.51.100.4');
  });

  it('matches IPv4-mapped peers and named ranges', () => {
    const client = clientAddressOf(['loopback']);
    expect(client(from('::ffff:127.0.0.2', '203.0.113.7'))).toBe('203.0.113.7');
    expect(client(from('::1', '203.0.113.8'))).toBe('203.0.113.8');
  });

  it('refuses an entry that is neither an address nor a CIDR', () => {
    expect(() => clientAddressOf(['10.0.0.0/99'])).toThrow(/10\.0\.0\.0\/99/);
    expect(() => clientAddressOf(['proxy.example.com'])).toThrow(/proxy\.example\.com/);
  });
});

describe('the collection window over HTTP', () => {
  let untrusting: RunningMock;
  let trusting: RunningMock;
  beforeAll(async () => {
    [untrusting, trusting] = await Promise.all([
      startMockServer({ api: 'collection', port: 0 }),
      startMockServer({ api: 'collection', port: 0, trustProxy: ['loopback'] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([untrusting.close(), trusting.close()]);
  });

  const authorization = `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`;
  const call = (mock: RunningMock, forwardedFor: string) =>
    fetch(`${mock.url}/api/shops?limit=1`, {
      headers: { authorization, 'x-forwarded-for': forwardedFor },
    });

  /** Calls with a new made-up X-Forwarded-For each time until one is refused; the calls admitted. */
  async function admittedUntilRefused(mock: RunningMock): Promise<number> {
    for (let admitted = 0; admitted < 1000; admitted++) {
      const response = await call(mock, `198.51.100.${admitted % 250}, 203.0.113.${admitted % 250}`);
      await response.arrayBuffer();
      if (response.status === 429) return admitted;
    }
    throw new Error('no call was refused');
  }

  it('counts made-up headers from an untrusted peer in the peer’s one window', async () => {
    const admitted = await admittedUntilRefused(untrusting);
    const limit = Number(
      (await call(untrusting, '192.0.2.200')).headers.get('x-api-call-limit')?.split('/')[1],
    );
    expect(admitted).toBe(limit);
    expect((await call(untrusting, '192.0.2.201')).status).toBe(429);
  });

  it('gives each client its own window behind a trusted proxy', async () => {
    const first = await call(trusting, '192.0.2.10');
    const limit = Number(first.headers.get('x-api-call-limit')?.split('/')[1]);
    for (let made = 1; made < limit; made++) expect((await call(trusting, '192.0.2.10')).status).toBe(200);
    expect((await call(trusting, '192.0.2.10')).status).toBe(429);
    expect((await call(trusting, '192.0.2.11')).status).toBe(200);
  });
});
