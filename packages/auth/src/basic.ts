// HTTP Basic client authentication (RFC 7617) as the mall platform uses it for its token endpoint and
// the collection API: building the `Authorization: Basic …` value, parsing one strictly, and
// comparing credentials in constant time. The platform encodes `client_id:client_secret` as is
// (no form-encoding first, unlike RFC 6749 §2.3.1). Not for bearer tokens: see bearer-middleware.
import { constantTimeEqual } from './constant-time.js';
import { AuthError } from './errors.js';

/** A client id and secret as carried by a Basic authorization header. */
export interface BasicCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Builds the `Authorization` header value `Basic base64(clientId:clientSecret)`.
 *
 * @throws {AuthError} code `invalid_argument` when the client id is empty or contains `:`
 *   (it could not be parsed back); the message never contains the secret.
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  if (clientId.length === 0 || clientId.includes(':')) {
    throw new AuthError('invalid_argument', 'a Basic client id must be non-empty and must not contain ":"');
  }
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`;
}

/**
 * Parses an `Authorization` header value of the Basic scheme (scheme name case-insensitive).
 *
 * @returns the credentials, or `undefined` when the header is absent, of another scheme, not
 *   canonical base64, not UTF-8, without a `:`, or has an empty client id or secret.
 */
export function parseBasicAuthorization(header: string | null | undefined): BasicCredentials | undefined {
  if (header === null || header === undefined) return undefined;
  const match = /^Basic +(\S+) *$/i.exec(header);
  const encoded = match?.[1];
  if (encoded === undefined || encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined;
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.toString('base64') !== encoded) return undefined;
  let decoded: string;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    return undefined; // not UTF-8: malformed by definition, and the bytes are never echoed
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return undefined;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}

/**
 * Whether `actual` (typically parsed from a request) equals the `expected` credentials. Both the id
 * and the secret are always compared, each in constant time.
 */
export function credentialsMatch(expected: BasicCredentials, actual: BasicCredentials | undefined): boolean {
  if (actual === undefined) return false;
  const idMatches = constantTimeEqual(expected.clientId, actual.clientId);
  const secretMatches = constantTimeEqual(expected.clientSecret, actual.clientSecret);
  return idMatches && secretMatches;
}
