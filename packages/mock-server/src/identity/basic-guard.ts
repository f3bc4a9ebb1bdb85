// Authenticates a request with HTTP Basic credentials against the configured clients, in constant
// time, and answers the caller with its scopes, or why it was refused. The clients' credential digests are computed once;
// a header not met before costs one digest of what it presents plus a constant-time comparison
// with every client. A header that was accepted is remembered as it was sent (at most
// `rememberedHeaders`, the oldest forgotten first), so a client sending the same header again is
// not hashed again: only an exact header a client was accepted with is ever remembered, so finding
// one tells nothing about a secret that was not sent whole. It decides; it does not write responses.
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseBasicAuthorization } from '@mall-api/auth';
import type { ClientCredential } from '../oauth/demo-credentials.js';
import type { Authentication, BasicGuard } from './authentication.js';

/** The refusals, one frozen answer each. */
const refused = (message: string): Authentication => Object.freeze({ ok: false, message });
const missing = refused('Authentication is required: send Basic credentials (client ID and client secret).');
const malformed = refused('The Authorization header is not valid Basic credentials.');
const invalid = refused('The client ID or client secret is invalid.');

/** The digest of a credential pair; the length prefix keeps `a:bc` and `ab:c` apart. */
const digestOf = (clientId: string, clientSecret: string) =>
  createHash('sha256').update(`${clientId.length}:${clientId}:${clientSecret}`).digest();

/** Accepted headers remembered at most (a client sends one; a few spell it differently). */
const rememberedHeaders = 64;

/**
 * Builds the guard for a set of clients. Every client is compared on every request whose header
 * was not accepted before, so timing reveals neither which IDs exist nor how much of a secret was
 * right.
 */
export function createBasicGuard(clients: readonly ClientCredential[]): BasicGuard {
  const known = clients.map((client) => ({ client, digest: digestOf(client.clientId, client.clientSecret) }));
  const accepted = new Map<string, Authentication>();
  return (header) => {
    if (header === undefined) return missing;
    const remembered = accepted.get(header);
    if (remembered) return remembered;
    if (header.trim() === '') return missing;
    const presented = parseBasicAuthorization(header);
    if (presented === undefined) return malformed;
    const digest = digestOf(presented.clientId, presented.clientSecret);
    let matched: ClientCredential | undefined;
    for (const { client, digest: expected } of known) {
      if (timingSafeEqual(expected, digest) && matched === undefined) matched = client;
    }
    if (!matched) return invalid;
    const outcome: Authentication = Object.freeze({
      ok: true,
      principal: Object.freeze({ clientId: matched.clientId, scopes: matched.scopes }),
    });
    if (accepted.size >= rememberedHeaders) accepted.delete(accepted.keys().next().value as string);
    accepted.set(header, outcome);
    return outcome;
  };
}
