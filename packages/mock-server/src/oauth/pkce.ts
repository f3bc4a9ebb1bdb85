// Proof Key for Code Exchange (RFC 7636) as the mock authorization server applies it: reading the
// `code_challenge` and `code_challenge_method` of an authorization request, and checking the
// `code_verifier` presented when the code is redeemed. Only the S256 method is accepted (`plain`
// protects nothing a public client in a browser needs); the platform's reference does not mention
// PKCE, so this is the mock's behaviour, not a statement about the platform.
import { createHash } from 'node:crypto';
import { constantTimeEqual } from '@mall-api/auth';

/** The challenge an authorization request carried, kept with the code it was issued with. */
export interface PkceChallenge {
  readonly challenge: string;
  readonly method: 'S256';
}

/** RFC 7636 4.1 and 4.2: 43 to 128 unreserved characters (a verifier, and an S256 challenge's alphabet). */
const unreserved = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url (unpadded) SHA-256 of the verifier: 43 characters. */
const s256Shape = /^[A-Za-z0-9_-]{43}$/;

/** The S256 code challenge of `verifier` (RFC 7636 4.2): BASE64URL(SHA256(ASCII(verifier))). */
export const s256Challenge = (verifier: string): string =>
  createHash('sha256').update(verifier, 'ascii').digest('base64url');

/**
 * Reads the PKCE parameters of an authorization request. No challenge and no method: no PKCE.
 * A challenge needs the method S256 (RFC 7636 4.3 makes a missing method `plain`, which the mock
 * refuses); a method without a challenge, or a challenge that is no S256 value, is refused too.
 */
export function readPkceChallenge(
  challenge: string | null,
  method: string | null,
): { ok: true; pkce: PkceChallenge | undefined } | { ok: false; description: string } {
  if (challenge === null && method === null) return { ok: true, pkce: undefined };
  if (challenge === null) return { ok: false, description: 'code_challenge_method needs a code_challenge.' };
  if (method !== 'S256')
    return { ok: false, description: 'code_challenge_method must be S256 (plain is not supported).' };
  if (!s256Shape.test(challenge))
    return { ok: false, description: 'code_challenge must be 43 base64url characters (S256).' };
  return { ok: true, pkce: { challenge, method } };
}

/** Whether `verifier` (RFC 7636 4.1 syntax) is the one whose S256 challenge is `pkce`; constant time. */
export const verifierMatches = (pkce: PkceChallenge, verifier: string | null): boolean =>
  verifier !== null &&
  unreserved.test(verifier) &&
  constantTimeEqual(s256Challenge(verifier), pkce.challenge);
