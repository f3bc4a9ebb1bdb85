// Authenticates a request with HTTP Basic credentials against the configured clients, in constant
// time, and tells which scopes the caller holds. The clients' credential digests are computed once;
// a request costs one digest of what it presents plus a constant-time comparison with every
// client. It decides; it does not write responses.
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseBasicAuthorization } from '@mall-api/auth';
import type { ClientCredential } from '../oauth/demo-credentials.js';

/** Outcome of a Basic authentication attempt. */
export type BasicAuthOutcome =
  | { ok: true; clientId: string; scopes: readonly string[] }
  | { ok: false; reason: 'missing' | 'malformed' | 'invalid' };

/** Checks an `Authorization` header; resolves which client, if any, it names. */
export type BasicGuard = (header: string | undefined) => BasicAuthOutcome;

/** The digest of a credential pair; the length prefix keeps `a:bc` and `ab:c` apart. */
const digestOf = (clientId: string, clientSecret: string) =>
  createHash('sha256').update(`${clientId.length}:${clientId}:${clientSecret}`).digest();

/**
 * Builds the guard for a set of clients. Every client is compared on every request, so timing
 * reveals neither which IDs exist nor how much of a secret was right.
 */
export function createBasicGuard(clients: readonly ClientCredential[]): BasicGuard {
  const known = clients.map((client) => ({ client, digest: digestOf(client.clientId, client.clientSecret) }));
  return (header) => {
    if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
    const presented = parseBasicAuthorization(header);
    if (presented === undefined) return { ok: false, reason: 'malformed' };
    const digest = digestOf(presented.clientId, presented.clientSecret);
    let matched: ClientCredential | undefined;
    for (const { client, digest: expected } of known) {
      if (timingSafeEqual(expected, digest) && matched === undefined) matched = client;
    }
    return matched
      ? { ok: true, clientId: matched.clientId, scopes: matched.scopes }
      : { ok: false, reason: 'invalid' };
  };
}
