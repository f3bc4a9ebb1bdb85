// The Basic guard: which client a header names, and that remembering accepted headers changes no
// outcome — a header is accepted only as a client sent it whole, whatever was accepted before.
import { describe, expect, it } from 'vitest';
import { createBasicGuard } from './basic-guard.js';

const clients = [
  { clientId: 'shop-app', clientSecret: 'shop-secret', scopes: ['collection.read_shop'] },
  {
    clientId: 'all-app',
    clientSecret: 'all-secret',
    scopes: ['collection.read_shop', 'collection.read_product'],
  },
];
const refused = (message: RegExp) => ({ ok: false, message: expect.stringMatching(message) });
const invalid = refused(/client ID or client secret is invalid/);
const malformed = refused(/not valid Basic credentials/);
const missing = refused(/Authentication is required/);
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('createBasicGuard', () => {
  it('names the client and its scopes, the same on a repeated header', () => {
    const guard = createBasicGuard(clients);
    const first = guard(basic('all-app', 'all-secret'));
    expect(first).toEqual({ ok: true, principal: { clientId: 'all-app', scopes: clients[1]?.scopes } });
    expect(guard(basic('all-app', 'all-secret'))).toEqual(first);
    expect(guard(basic('shop-app', 'shop-secret'))).toMatchObject({
      ok: true,
      principal: { clientId: 'shop-app' },
    });
  });

  it('refuses a wrong secret, a swapped pair and a near miss after the right header was accepted', () => {
    const guard = createBasicGuard(clients);
    expect(guard(basic('shop-app', 'shop-secret')).ok).toBe(true);
    expect(guard(basic('shop-app', 'shop-secreT'))).toEqual(invalid);
    expect(guard(basic('shop-app', 'all-secret'))).toEqual(invalid);
    expect(guard(`${basic('shop-app', 'shop-secret')}x`)).toEqual(malformed);
    expect(guard(basic('shop-app', 'shop-secret')).ok).toBe(true);
  });

  it('tells a missing header from a malformed one, each time', () => {
    const guard = createBasicGuard(clients);
    for (let round = 0; round < 2; round++) {
      expect(guard(undefined)).toEqual(missing);
      expect(guard('  ')).toEqual(missing);
      expect(guard('Bearer abc')).toEqual(malformed);
    }
  });

  it('keeps accepting every client once more spellings were accepted than it remembers', () => {
    const guard = createBasicGuard(clients);
    const encoded = Buffer.from('shop-app:shop-secret').toString('base64');
    // The scheme name is case-insensitive and may be followed by several spaces: each spelling is another header.
    const spellings = Array.from(
      { length: 100 },
      (_, n) => `${n % 2 ? 'basic' : 'Basic'}${' '.repeat(1 + (n >> 1))}${encoded}`,
    );
    for (const header of spellings)
      expect(guard(header)).toMatchObject({ ok: true, principal: { clientId: 'shop-app' } });
    for (const header of spellings)
      expect(guard(header)).toMatchObject({ ok: true, principal: { clientId: 'shop-app' } });
    expect(guard(basic('all-app', 'all-secret'))).toMatchObject({
      ok: true,
      principal: { clientId: 'all-app' },
    });
    expect(guard(basic('all-app', 'wrong'))).toEqual(invalid);
  });
});
