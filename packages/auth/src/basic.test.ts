// Specification of HTTP Basic client authentication: header building, strict parsing and
// constant-time credential comparison.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basicAuthorization, credentialsMatch, parseBasicAuthorization } from './basic.js';
import { AuthError } from './errors.js';

describe('basicAuthorization', () => {
  it('encodes "client_id:client_secret" in base64 after the Basic scheme', () => {
    expect(basicAuthorization('BrIfqEKoPxeE', 's3cret')).toBe(
      `Basic ${Buffer.from('BrIfqEKoPxeE:s3cret').toString('base64')}`,
    );
  });

  it('round-trips through parseBasicAuthorization for any id without ":" and any non-empty secret', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((id) => !id.includes(':')),
        fc.string({ minLength: 1 }),
        (clientId, clientSecret) => {
          expect(parseBasicAuthorization(basicAuthorization(clientId, clientSecret))).toEqual({
            clientId,
            clientSecret,
          });
        },
      ),
    );
  });

  it('keeps a ":" inside the secret', () => {
    expect(parseBasicAuthorization(basicAuthorization('id', 'a:b:c'))).toEqual({
      clientId: 'id',
      clientSecret: 'a:b:c',
    });
  });

  it('rejects a client id containing ":" without quoting the secret', () => {
    const attempt = () => basicAuthorization('bad:id', 'TOP-SECRET-VALUE');
    expect(attempt).toThrow(AuthError);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_argument' });
      expect(JSON.stringify(error)).not.toContain('TOP-SECRET-VALUE');
      expect(String(error)).not.toContain('TOP-SECRET-VALUE');
    }
  });
});

describe('parseBasicAuthorization', () => {
  const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64');

  it('accepts the scheme name in any letter case', () => {
    expect(parseBasicAuthorization(`bAsIc ${encode('id:secret')}`)).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
    });
  });

  it.each([
    ['an absent header', undefined],
    ['a null header', null],
    ['an empty header', ''],
    ['another scheme', `Bearer ${encode('id:secret')}`],
    ['the scheme alone', 'Basic'],
    ['the scheme and a space', 'Basic '],
    ['non-base64 characters', 'Basic !!!!'],
    ['base64 of the wrong length', 'Basic YWJj='],
    ['non-canonical base64 padding bits', 'Basic aWQ6cx=='],
    ['two tokens', `Basic ${encode('id:secret')} ${encode('x:y')}`],
    ['no colon', `Basic ${encode('idsecret')}`],
    ['an empty client id', `Basic ${encode(':secret')}`],
    ['an empty secret', `Basic ${encode('id:')}`],
    ['bytes that are not UTF-8', `Basic ${Buffer.from([0x69, 0x64, 0x3a, 0xff, 0xfe]).toString('base64')}`],
  ])('returns undefined for %s', (_label, header) => {
    expect(parseBasicAuthorization(header)).toBeUndefined();
  });

  it('never throws, whatever the header', () => {
    fc.assert(
      fc.property(fc.string(), (header) => {
        const parsed = parseBasicAuthorization(header);
        expect(parsed === undefined || (parsed.clientId.length > 0 && parsed.clientSecret.length > 0)).toBe(
          true,
        );
      }),
    );
  });
});

describe('credentialsMatch', () => {
  const expected = { clientId: 'client', clientSecret: 'secret' };

  it('is true only when both the id and the secret are equal', () => {
    expect(credentialsMatch(expected, { clientId: 'client', clientSecret: 'secret' })).toBe(true);
    expect(credentialsMatch(expected, { clientId: 'client', clientSecret: 'secreT' })).toBe(false);
    expect(credentialsMatch(expected, { clientId: 'Client', clientSecret: 'secret' })).toBe(false);
    expect(credentialsMatch(expected, { clientId: 'client', clientSecret: 'secret-longer' })).toBe(false);
    expect(credentialsMatch(expected, { clientId: 'client', clientSecret: '' })).toBe(false);
  });

  it('is false for missing credentials', () => {
    expect(credentialsMatch(expected, undefined)).toBe(false);
  });

  it('works on parsed headers', () => {
    expect(credentialsMatch(expected, parseBasicAuthorization(basicAuthorization('client', 'secret')))).toBe(
      true,
    );
    expect(credentialsMatch(expected, parseBasicAuthorization(basicAuthorization('client', 'wrong')))).toBe(
      false,
    );
  });
});
