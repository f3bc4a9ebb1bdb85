// PKCE as the mock applies it (RFC 7636): the S256 transform gives the RFC's appendix B value, a
// verifier matches only its own challenge, and an authorization request's challenge is S256 or
// refused (plain, a missing method, a method alone, a value that is no S256 challenge).
import { describe, expect, it } from 'vitest';
import { readPkceChallenge, s256Challenge, verifierMatches } from './pkce.js';

// RFC 7636 appendix B.
const rfcVerifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const rfcChallenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('s256Challenge', () => {
  it('is the RFC 7636 appendix B challenge of its verifier', () => {
    expect(s256Challenge(rfcVerifier)).toBe(rfcChallenge);
  });
});

describe('verifierMatches', () => {
  const pkce = { challenge: rfcChallenge, method: 'S256' } as const;

  it('accepts the verifier the challenge was made from', () => {
    expect(verifierMatches(pkce, rfcVerifier)).toBe(true);
  });

  it('refuses another verifier, a missing one, and one outside RFC 7636’s syntax', () => {
    expect(verifierMatches(pkce, `${rfcVerifier.slice(0, -1)}Y`)).toBe(false);
    expect(verifierMatches(pkce, null)).toBe(false);
    expect(verifierMatches(pkce, 'short')).toBe(false);
    // The challenge itself is a well-formed verifier, but not this challenge's.
    expect(verifierMatches(pkce, rfcChallenge)).toBe(false);
    const tooLong = 'a'.repeat(129);
    expect(verifierMatches({ challenge: s256Challenge(tooLong), method: 'S256' }, tooLong)).toBe(false);
  });
});

describe('readPkceChallenge', () => {
  it('reads no PKCE from a request without its parameters', () => {
    expect(readPkceChallenge(null, null)).toEqual({ ok: true, pkce: undefined });
  });

  it('keeps an S256 challenge', () => {
    expect(readPkceChallenge(rfcChallenge, 'S256')).toEqual({
      ok: true,
      pkce: { challenge: rfcChallenge, method: 'S256' },
    });
  });

  it.each([
    ['the plain method', rfcVerifier, 'plain'],
    ['a challenge without a method (plain by RFC 7636)', rfcChallenge, null],
    ['a method without a challenge', null, 'S256'],
    ['a challenge that is no S256 value', 'too-short', 'S256'],
    ['a challenge with characters base64url lacks', `${rfcChallenge.slice(0, -1)}.`, 'S256'],
  ])('refuses %s', (_, challenge, method) => {
    const outcome = readPkceChallenge(challenge, method);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? '' : outcome.description).toMatch(/code_challenge/);
  });
});
