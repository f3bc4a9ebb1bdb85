// Specification of the token set's wire form: the platform's JSON answer parses into a TokenSet
// (+09:00 datetimes) and formatTokenResponse writes it back unchanged.
import { describe, expect, it } from 'vitest';
import { sampleTokenSet } from './testing/token-store-contract.js';
import { formatTokenResponse, parseTokenResponse } from './token-set.js';

describe('token response', () => {
  it('formats datetimes as +09:00 wall-clock time without suffix', () => {
    const body = formatTokenResponse(
      sampleTokenSet({ accessTokenExpiresAt: new Date('2021-03-01T05:00:00.000Z') }),
    );
    expect(body.expires_at).toBe('2021-03-01T14:00:00.000');
    expect(Object.keys(body).sort()).toEqual(
      [
        'access_token',
        'client_id',
        'expires_at',
        'issued_at',
        'mall_id',
        'refresh_token',
        'refresh_token_expires_at',
        'scopes',
        'user_id',
      ].sort(),
    );
  });

  it('parses back what it formats', () => {
    const tokens = sampleTokenSet();
    expect(parseTokenResponse(JSON.parse(JSON.stringify(formatTokenResponse(tokens))))).toEqual(tokens);
  });

  it('ignores fields it does not know, such as shop_no and token_type', () => {
    const body = { ...formatTokenResponse(sampleTokenSet()), shop_no: '1', token_type: 'Bearer' };
    expect(parseTokenResponse(body)).toEqual(sampleTokenSet());
  });
});
