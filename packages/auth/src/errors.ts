// The error values of the auth package: one base class with a machine-readable `code`, a message
// and a context object, and the few subclasses callers branch on (OAuth failures, re-authorization,
// token stores). Every message and context is built from non-secret facts only; `redactSecrets`
// scrubs text that came from outside (an error description echoed by a server). Not for HTTP error
// envelopes of the mall APIs themselves.

/** Every `code` an {@link AuthError} can carry. */
export type AuthErrorCode =
  | 'invalid_argument'
  | 'state_mismatch'
  | 'token_endpoint_unreachable'
  | 'token_request_failed'
  | 'invalid_token_response'
  | 'reauthorization_required'
  | 'invalid_mall_id'
  | 'store_failed'
  | 'corrupt_token_record'
  | 'lock_timeout'
  | 'lock_lost';

/** Non-secret facts about the failure (mall id, HTTP status, OAuth error code, field name…). */
export type AuthErrorContext = Readonly<Record<string, string | number | boolean | undefined>>;

/** Options shared by every auth error constructor. */
export interface AuthErrorOptions {
  /** Non-secret facts about the failure. Never put a token or secret here. */
  readonly context?: AuthErrorContext;
  /** The underlying error, kept so it is never swallowed. It must not carry secrets either. */
  readonly cause?: unknown;
}

/**
 * Base class of every error thrown by this package. `toJSON` returns only the name, code, message
 * and context, so serialising an error never leaks what the cause might hold.
 */
export class AuthError extends Error {
  /** Machine-readable reason; branch on this, not on the message. */
  readonly code: AuthErrorCode;
  /** Non-secret facts about the failure. */
  readonly context: AuthErrorContext;

  constructor(code: AuthErrorCode, message: string, options: AuthErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AuthError';
    this.code = code;
    this.context = Object.freeze({ ...(options.context ?? {}) });
  }

  /** The serialisable form: name, code, message and context — never the cause or the stack. */
  toJSON(): { name: string; code: AuthErrorCode; message: string; context: AuthErrorContext } {
    return { name: this.name, code: this.code, message: this.message, context: this.context };
  }
}

/** Options of an {@link OAuthError}. */
export interface OAuthErrorOptions extends AuthErrorOptions {
  /** HTTP status of the token endpoint's answer, when there was one. */
  readonly status?: number;
  /** The RFC 6749 `error` value of the answer (e.g. `invalid_grant`), when there was one. */
  readonly oauthError?: string;
}

/** A failed call to the OAuth token endpoint, or an answer that is not a valid token response. */
export class OAuthError extends AuthError {
  /** HTTP status of the token endpoint's answer, if any. */
  readonly status: number | undefined;
  /** The RFC 6749 `error` value (e.g. `invalid_client`), if the answer carried one. */
  readonly oauthError: string | undefined;

  constructor(code: AuthErrorCode, message: string, options: OAuthErrorOptions = {}) {
    super(code, message, {
      ...options,
      context: { ...options.context, status: options.status, oauthError: options.oauthError },
    });
    this.name = 'OAuthError';
    this.status = options.status;
    this.oauthError = options.oauthError;
  }
}

/** Why the user has to authorize the app again. */
export type ReauthorizationReason = 'invalid_grant' | 'refresh_token_expired' | 'no_tokens';

/**
 * The stored grant can no longer be used — the token endpoint answered `invalid_grant`, the refresh
 * token is past its expiry, or no tokens are stored — so the mall operator must go through the
 * authorization-code flow again. Code `reauthorization_required`.
 */
export class ReauthorizationRequiredError extends OAuthError {
  /** Why re-authorization is needed. */
  readonly reason: ReauthorizationReason;

  constructor(reason: ReauthorizationReason, message: string, options: OAuthErrorOptions = {}) {
    super('reauthorization_required', message, {
      ...options,
      context: { ...options.context, reason },
    });
    this.name = 'ReauthorizationRequiredError';
    this.reason = reason;
  }
}

/** A token store could not read, write or lock. */
export class TokenStoreError extends AuthError {
  constructor(code: AuthErrorCode, message: string, options: AuthErrorOptions = {}) {
    super(code, message, options);
    this.name = 'TokenStoreError';
  }
}

/**
 * Replaces every occurrence of each non-empty secret in `text` with `[REDACTED]`. Used on text that
 * came from outside (a server's error description) before it goes into a message.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length > 0) result = result.split(secret).join('[REDACTED]');
  }
  return result;
}

/**
 * A stand-in for a foreign error that keeps only names, messages and string `code`s along its cause
 * chain. Used where the original may carry secrets in other properties (ioredis attaches command
 * arguments to its errors; an injected `fetch` could attach the request).
 */
export function sanitizedCause(error: unknown, depth = 0): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const nested = error.cause !== undefined && depth < 3 ? sanitizedCause(error.cause, depth + 1) : undefined;
  const copy = new Error(error.message, nested === undefined ? undefined : { cause: nested });
  copy.name = error.name;
  const code: unknown = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.defineProperty(copy, 'code', { value: code, enumerable: true });
  return copy;
}
