// The app's side of the platform's OAuth 2.0 authorization-code flow: the authorize URL with a
// random CSRF `state`, the constant-time state check on the redirect, and the two token requests
// (code exchange and refresh) against `{mallBaseUrl}/api/v2/oauth/token` with Basic client
// credentials and a form body. Every base URL is configurable (the platform's is
// `https://{mall_id}.cafe24api.com`; a mock server's is e.g. `http://127.0.0.1:4011`). Not for
// keeping tokens fresh or storing them: see token-manager and the token stores.
import { randomBytes } from 'node:crypto';
import { basicAuthorization } from './basic.js';
import { constantTimeEqual } from './constant-time.js';
import {
  AuthError,
  OAuthError,
  ReauthorizationRequiredError,
  redactSecrets,
  sanitizedCause,
} from './errors.js';
import { parseTokenResponse, type TokenSet } from './token-set.js';

/** The `fetch` signature the token requests use; inject one in tests. */
export type FetchFunction = (input: Request) => Promise<Response>;

/**
 * How scopes are joined in the authorize URL. The platform's newer guide says space-separated;
 * every observed integration uses commas. Default `','`.
 */
export type ScopeSeparator = ',' | ' ';

/** Input of {@link buildAuthorizeUrl}. */
export interface AuthorizeUrlOptions {
  /** e.g. `https://yourmall.cafe24api.com` or `http://127.0.0.1:4011`; a trailing `/` is ignored. */
  readonly mallBaseUrl: string;
  readonly clientId: string;
  /** Must equal a redirect URI registered for the app. */
  readonly redirectUri: string;
  /** e.g. `['mall.read_product', 'mall.write_product']`. */
  readonly scopes: readonly string[];
  /** CSRF state; a fresh random one (32 bytes, base64url) when omitted. */
  readonly state?: string;
  /** Default `','`. */
  readonly scopeSeparator?: ScopeSeparator;
}

/** The URL to send the browser to, and the state to remember until the redirect comes back. */
export interface AuthorizeRequest {
  readonly url: string;
  readonly state: string;
}

/** What both token requests need. */
export interface TokenEndpointOptions {
  readonly mallBaseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Default `globalThis.fetch`. */
  readonly fetch?: FetchFunction;
  /** Aborts the request (e.g. `AbortSignal.timeout(10_000)`). */
  readonly signal?: AbortSignal;
}

/** Input of {@link exchangeCode}. */
export interface ExchangeCodeOptions extends TokenEndpointOptions {
  /** The single-use authorization code from the redirect (valid one minute). */
  readonly code: string;
  /** The same redirect URI as in the authorize request. */
  readonly redirectUri: string;
}

/** Input of {@link refreshToken}. */
export interface RefreshTokenOptions extends TokenEndpointOptions {
  /** The current refresh token; the platform voids it once the refresh succeeds. */
  readonly refreshToken: string;
}

const MAX_DESCRIPTION_LENGTH = 300;

/** Joins the base URL and an absolute API path, keeping any path prefix of the base URL. */
export function oauthUrl(mallBaseUrl: string, path: '/api/v2/oauth/authorize' | '/api/v2/oauth/token'): URL {
  const base = mallBaseUrl.replace(/\/+$/, '');
  try {
    return new URL(`${base}${path}`);
  } catch (error) {
    throw new AuthError('invalid_argument', 'mallBaseUrl is not an absolute URL', {
      context: { mallBaseUrl },
      cause: sanitizedCause(error),
    });
  }
}

/** A fresh CSRF state: 32 random bytes, base64url. */
export function createState(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Builds `GET {mallBaseUrl}/api/v2/oauth/authorize?response_type=code&client_id&state&redirect_uri&scope`.
 * Remember the returned `state` (server-side session) and check it with {@link verifyState}.
 */
export function buildAuthorizeUrl(options: AuthorizeUrlOptions): AuthorizeRequest {
  const state = options.state ?? createState();
  if (state.length === 0) throw new AuthError('invalid_argument', 'state must not be empty');
  const url = oauthUrl(options.mallBaseUrl, '/api/v2/oauth/authorize');
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', options.clientId);
  url.searchParams.set('state', state);
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('scope', options.scopes.join(options.scopeSeparator ?? ','));
  return { url: url.toString(), state };
}

/**
 * Checks the `state` that came back on the redirect against the one sent, in constant time.
 *
 * @throws {AuthError} code `state_mismatch` when it is absent or differs (neither value is quoted).
 */
export function verifyState(expected: string, received: string | null | undefined): void {
  if (expected.length === 0) throw new AuthError('invalid_argument', 'expected state must not be empty');
  if (received === null || received === undefined || !constantTimeEqual(expected, received)) {
    throw new AuthError(
      'state_mismatch',
      'OAuth state mismatch: the redirect was not caused by our request',
      {
        context: { received: received === null || received === undefined ? 'absent' : 'different' },
      },
    );
  }
}

/**
 * Exchanges an authorization code for a token set
 * (`grant_type=authorization_code&code=…&redirect_uri=…`).
 *
 * @throws {ReauthorizationRequiredError} on `invalid_grant` (code used, expired or foreign).
 * @throws {OAuthError} on any other failure, codes `token_endpoint_unreachable`,
 *   `token_request_failed` or `invalid_token_response`.
 */
export async function exchangeCode(options: ExchangeCodeOptions): Promise<TokenSet> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: options.code,
    redirect_uri: options.redirectUri,
  });
  return requestTokens(options, form, 'authorization_code', [options.code]);
}

/**
 * Trades the refresh token for a new token set (`grant_type=refresh_token&refresh_token=…`). The
 * answer carries a NEW refresh token and the old one stops working: persist the result before
 * using it.
 *
 * @throws {ReauthorizationRequiredError} on `invalid_grant` (refresh token used, expired or revoked).
 * @throws {OAuthError} on any other failure, codes `token_endpoint_unreachable`,
 *   `token_request_failed` or `invalid_token_response`.
 */
export async function refreshToken(options: RefreshTokenOptions): Promise<TokenSet> {
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: options.refreshToken });
  return requestTokens(options, form, 'refresh_token', [options.refreshToken]);
}

async function requestTokens(
  options: TokenEndpointOptions,
  form: URLSearchParams,
  grantType: 'authorization_code' | 'refresh_token',
  grantSecrets: readonly string[],
): Promise<TokenSet> {
  const url = oauthUrl(options.mallBaseUrl, '/api/v2/oauth/token');
  const secrets = [options.clientSecret, ...grantSecrets];
  const context = { grantType, url: url.toString() };
  const request = new Request(url, {
    method: 'POST',
    headers: {
      authorization: basicAuthorization(options.clientId, options.clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: form.toString(),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const fetchFunction = options.fetch ?? globalThis.fetch;

  let response: Response;
  try {
    response = await fetchFunction(request);
  } catch (error) {
    throw new OAuthError('token_endpoint_unreachable', `token endpoint ${context.url} could not be reached`, {
      context,
      cause: sanitizedCause(error),
    });
  }

  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new OAuthError('token_endpoint_unreachable', 'token endpoint answer could not be read', {
      context,
      status: response.status,
      cause: sanitizedCause(error),
    });
  }
  const body = parseJson(text);

  if (!response.ok) throw endpointError(response.status, body, context, secrets);
  if (body === undefined) {
    throw new OAuthError('invalid_token_response', 'token endpoint answered 2xx without a JSON body', {
      context,
      status: response.status,
    });
  }
  try {
    return parseTokenResponse(body);
  } catch (error) {
    if (error instanceof OAuthError) {
      throw new OAuthError(error.code, error.message, {
        context: { ...error.context, ...context },
        status: response.status,
      });
    }
    throw error;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON: callers treat `undefined` as "no usable body", never quote the text
  }
}

function endpointError(
  status: number,
  body: unknown,
  context: Readonly<Record<string, string>>,
  secrets: readonly string[],
): OAuthError {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const oauthError =
    typeof record.error === 'string' ? redactSecrets(record.error, secrets).slice(0, 100) : undefined;
  const rawDescription = typeof record.error_description === 'string' ? record.error_description : undefined;
  const description =
    rawDescription === undefined
      ? undefined
      : redactSecrets(rawDescription, secrets).slice(0, MAX_DESCRIPTION_LENGTH);
  const detail = `${oauthError ?? 'no OAuth error code'}${description === undefined ? '' : ` (${description})`}`;
  if (oauthError === 'invalid_grant') {
    return new ReauthorizationRequiredError(
      'invalid_grant',
      `the ${context.grantType === 'refresh_token' ? 'refresh token' : 'authorization code'} is no longer valid; the mall must authorize the app again: ${detail}`,
      { context: { ...context, description }, status, oauthError },
    );
  }
  return new OAuthError('token_request_failed', `token endpoint answered HTTP ${status}: ${detail}`, {
    context: { ...context, description },
    status,
    oauthError,
  });
}
