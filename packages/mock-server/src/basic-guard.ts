// Authenticates a request with HTTP Basic credentials against the configured clients, in constant
// time, and tells which scopes the caller holds. It decides; it does not write responses.
import { credentialsMatch, parseBasicAuthorization } from '@mall-api/auth';
import type { ClientCredential } from './demo-credentials.js';

/** Outcome of a Basic authentication attempt. */
export type BasicAuthOutcome =
  | { ok: true; clientId: string; scopes: readonly string[] }
  | { ok: false; reason: 'missing' | 'malformed' | 'invalid' };

/** Checks an `Authorization` header against the known clients. Every known client is compared, so timing does not reveal which IDs exist. */
export function authenticateBasic(
  header: string | undefined,
  clients: readonly ClientCredential[],
): BasicAuthOutcome {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
  const presented = parseBasicAuthorization(header);
  if (presented === undefined) return { ok: false, reason: 'malformed' };
  let matched: ClientCredential | undefined;
  for (const client of clients) {
    const same = credentialsMatch(
      { clientId: client.clientId, clientSecret: client.clientSecret },
      presented,
    );
    if (same && matched === undefined) matched = client;
  }
  return matched
    ? { ok: true, clientId: matched.clientId, scopes: matched.scopes }
    : { ok: false, reason: 'invalid' };
}
