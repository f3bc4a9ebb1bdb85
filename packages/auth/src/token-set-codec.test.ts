// Specification of how stores serialise token sets: a lossless versioned round trip, and a strict
// decoder that reports anything else as corrupt without quoting it.
import { describe, expect, it } from 'vitest';
import { sampleTokenSet } from './testing/token-store-contract.js';
import { decodeTokenSet, encodeTokenSet } from './token-set-codec.js';

describe('token set codec', () => {
  it('round-trips every field, dates included', () => {
    const tokens = sampleTokenSet();
    expect(decodeTokenSet('yourmall', encodeTokenSet(tokens))).toEqual(tokens);
  });

  it('writes ISO-8601 UTC instants and a format version', () => {
    expect(JSON.parse(encodeTokenSet(sampleTokenSet()))).toMatchObject({
      version: 1,
      accessTokenExpiresAt: '2030-03-01T05:00:00.000Z',
    });
  });

  const valid = JSON.parse(encodeTokenSet(sampleTokenSet())) as Record<string, unknown>;
  it.each([
    ['text that is not JSON', '{"version":1,"accessToken":"SECRET'],
    ['a JSON array', '[]'],
    ['another format version', JSON.stringify({ ...valid, version: 2 })],
    ['a missing refresh token', JSON.stringify({ ...valid, refreshToken: undefined })],
    ['an invalid instant', JSON.stringify({ ...valid, issuedAt: 'soon' })],
    ['scopes that are not strings', JSON.stringify({ ...valid, scopes: [1] })],
  ])('rejects %s as corrupt_token_record without quoting it', (_label, text) => {
    let error: unknown;
    try {
      decodeTokenSet('yourmall', text);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ code: 'corrupt_token_record', context: { mallId: 'yourmall' } });
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toMatch(/SECRET|access-sample|refresh-sample/);
  });
});
