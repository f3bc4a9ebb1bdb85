// The token set: what one successful authorization-code exchange or refresh yields, in our own
// camelCase shape with real `Date`s, plus the strict validation of the token endpoint's JSON answer
// into it. Not for storage encoding (see token-set-codec) and not for HTTP (see oauth-client).
import { OAuthError } from './errors.js';
import { formatPlatformDateTime, parsePlatformDateTime } from './platform-time.js';

/** The tokens of one mall's grant, as answered by the token endpoint. */
export interface TokenSet {
  /** Bearer token for API calls; valid two hours on the platform. */
  readonly accessToken: string;
  readonly accessTokenExpiresAt: Date;
  /** Single-use: each refresh returns a new one and voids this one. Valid two weeks. */
  readonly refreshToken: string;
  readonly refreshTokenExpiresAt: Date;
  readonly clientId: string;
  readonly mallId: string;
  readonly userId: string;
  readonly scopes: readonly string[];
  readonly issuedAt: Date;
}

/**
 * The 200 answer of `POST /api/v2/oauth/token`, as the platform spells it. Datetimes have no zone
 * suffix and are +09:00. Other fields the platform may add (`shop_no`, `token_type`) are ignored.
 */
export interface TokenResponseBody {
  access_token: string;
  expires_at: string;
  refresh_token: string;
  refresh_token_expires_at: string;
  client_id: string;
  mall_id: string;
  user_id: string;
  scopes: string[];
  issued_at: string;
}

function invalid(field: string, expectation: string): OAuthError {
  // The message names the field, never its value: the value may be a token.
  return new OAuthError('invalid_token_response', `token response field ${field} ${expectation}`, {
    context: { field },
  });
}

function readString(record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== 'string' || value.length === 0)
    throw invalid(field, 'is missing or not a non-empty string');
  return value;
}

function readDate(record: Record<string, unknown>, field: string): Date {
  const value = record[field];
  const date = typeof value === 'string' ? parsePlatformDateTime(value) : undefined;
  if (date === undefined) throw invalid(field, 'is missing or not a datetime like 2021-03-01T14:00:00.000');
  return date;
}

function readScopes(record: Record<string, unknown>): string[] {
  const value = record.scopes;
  if (!Array.isArray(value) || !value.every((scope): scope is string => typeof scope === 'string')) {
    throw invalid('scopes', 'is missing or not an array of strings');
  }
  return [...value];
}

/**
 * Validates a token endpoint answer and converts it to a {@link TokenSet}: every field must be
 * present with the right type, token strings non-empty, `scopes` an array of strings, and the three
 * datetimes valid platform datetimes (read as +09:00 when, as usual, they carry no zone suffix).
 *
 * @throws {OAuthError} code `invalid_token_response`, naming the first offending field.
 */
export function parseTokenResponse(body: unknown): TokenSet {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('(body)', 'is not a JSON object');
  }
  const record = body as Record<string, unknown>;
  return {
    accessToken: readString(record, 'access_token'),
    accessTokenExpiresAt: readDate(record, 'expires_at'),
    refreshToken: readString(record, 'refresh_token'),
    refreshTokenExpiresAt: readDate(record, 'refresh_token_expires_at'),
    clientId: readString(record, 'client_id'),
    mallId: readString(record, 'mall_id'),
    userId: readString(record, 'user_id'),
    scopes: readScopes(record),
    issuedAt: readDate(record, 'issued_at'),
  };
}

/**
 * The inverse of {@link parseTokenResponse}: the platform's JSON answer for a token set, datetimes
 * formatted as +09:00 without suffix. For fake and mock token endpoints.
 */
export function formatTokenResponse(tokens: TokenSet): TokenResponseBody {
  return {
    access_token: tokens.accessToken,
    expires_at: formatPlatformDateTime(tokens.accessTokenExpiresAt),
    refresh_token: tokens.refreshToken,
    refresh_token_expires_at: formatPlatformDateTime(tokens.refreshTokenExpiresAt),
    client_id: tokens.clientId,
    mall_id: tokens.mallId,
    user_id: tokens.userId,
    scopes: [...tokens.scopes],
    issued_at: formatPlatformDateTime(tokens.issuedAt),
  };
}
