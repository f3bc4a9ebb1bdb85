// How token stores serialise a TokenSet: versioned JSON with ISO-8601 UTC instants, and a strict
// decoder that refuses anything else, so a corrupt or foreign record is an error rather than a
// half-valid grant. Not the token endpoint's wire format (see token-set).
import { TokenStoreError } from './errors.js';
import type { TokenSet } from './token-set.js';

const FORMAT_VERSION = 1;

interface StoredTokenSet {
  version: typeof FORMAT_VERSION;
  accessToken: string;
  accessTokenExpiresAt: string;
  refreshToken: string;
  refreshTokenExpiresAt: string;
  clientId: string;
  mallId: string;
  userId: string;
  scopes: string[];
  issuedAt: string;
}

/** Serialises a token set for a store. The result contains the tokens: keep it out of logs. */
export function encodeTokenSet(tokens: TokenSet): string {
  const stored: StoredTokenSet = {
    version: FORMAT_VERSION,
    accessToken: tokens.accessToken,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt.toISOString(),
    refreshToken: tokens.refreshToken,
    refreshTokenExpiresAt: tokens.refreshTokenExpiresAt.toISOString(),
    clientId: tokens.clientId,
    mallId: tokens.mallId,
    userId: tokens.userId,
    scopes: [...tokens.scopes],
    issuedAt: tokens.issuedAt.toISOString(),
  };
  return JSON.stringify(stored);
}

function corrupt(mallId: string, detail: string): TokenStoreError {
  return new TokenStoreError('corrupt_token_record', `stored token record for mall ${mallId} ${detail}`, {
    context: { mallId },
  });
}

/**
 * Decodes what {@link encodeTokenSet} produced.
 *
 * @throws {TokenStoreError} code `corrupt_token_record` when the text is not such a record (the
 *   message never quotes the record).
 */
export function decodeTokenSet(mallId: string, text: string): TokenSet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw corrupt(mallId, 'is not JSON'); // the parser's message could quote the tokens
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw corrupt(mallId, 'is not an object');
  const record = parsed as Record<string, unknown>;
  if (record.version !== FORMAT_VERSION) throw corrupt(mallId, 'has an unknown format version');
  const stringField = (field: string): string => {
    const value = record[field];
    if (typeof value !== 'string' || value.length === 0) throw corrupt(mallId, `has no valid ${field}`);
    return value;
  };
  const instantField = (field: string): Date => {
    const date = new Date(stringField(field));
    if (Number.isNaN(date.getTime())) throw corrupt(mallId, `has no valid ${field}`);
    return date;
  };
  const scopes = record.scopes;
  if (!Array.isArray(scopes) || !scopes.every((scope): scope is string => typeof scope === 'string')) {
    throw corrupt(mallId, 'has no valid scopes');
  }
  return {
    accessToken: stringField('accessToken'),
    accessTokenExpiresAt: instantField('accessTokenExpiresAt'),
    refreshToken: stringField('refreshToken'),
    refreshTokenExpiresAt: instantField('refreshTokenExpiresAt'),
    clientId: stringField('clientId'),
    mallId: stringField('mallId'),
    userId: stringField('userId'),
    scopes: [...scopes],
    issuedAt: instantField('issuedAt'),
  };
}
