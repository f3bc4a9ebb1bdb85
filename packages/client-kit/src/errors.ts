// The one error class of the mall clients: `MallApiError`, raised for an error status when a call
// or client asks for `throwOnError`, by `paginate` and `fetchRange` on a failed page, and always for
// a call that timed out or could not connect. A `kind` discriminant names the case (400, 401, 403,
// 404, 422, 429, 5xx, other statuses, connection, timeout); `isMallApiError` narrows on it. Every
// message is stripped of credentials. Not for programming errors (bad options throw RangeError).
import { type CallTiming, failureKind } from '@mall-api/rate-limit';

/** What went wrong: an error status class, or no usable answer at all. */
export type MallErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'validation'
  | 'rate_limited'
  | 'server'
  | 'http'
  | 'connection'
  | 'timeout';

/** The kinds without an HTTP status: the server never answered in full. */
export type TransportErrorKind = 'connection' | 'timeout';

const statusKinds: Readonly<Record<number, MallErrorKind>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  422: 'validation',
  429: 'rate_limited',
};

/** The kind of an error status: `server` for 5xx, `http` for a status without its own kind. */
export const errorKindOf = (status: number): MallErrorKind =>
  statusKinds[status] ?? (status >= 500 ? 'server' : 'http');

/** Where a failed call was going. */
export interface CallSite {
  readonly method: string;
  /** The path template, e.g. `/api/v2/admin/products/{product_no}`. */
  readonly path: string;
  /** The spec's operationId for the method and path, when it has one. */
  readonly operationId: string | undefined;
}

/** What {@link MallApiError} is made of. */
export interface MallApiErrorDetails<K extends MallErrorKind> extends CallSite {
  readonly kind: K;
  readonly status: K extends TransportErrorKind ? undefined : number;
  readonly code: string;
  readonly message: string;
  readonly moreInfo?: Readonly<Record<string, unknown>> | undefined;
  readonly body?: unknown;
  readonly headers?: Headers | undefined;
  readonly requestId?: string | undefined;
  readonly timing?: CallTiming | undefined;
  readonly cause?: unknown;
}

/** `text` with bearer and Basic credentials, tokens and secrets replaced by `[redacted]`. */
export const redactSecrets = (text: string): string =>
  text
    .replace(/\b(Bearer|Basic)\s+[\w.~+/=-]+/gi, '$1 [redacted]')
    .replace(
      /\b((?:access|refresh)_token|client_secret|password)(["']?\s*[:=]\s*["']?)[^\s"'&,}]+/gi,
      '$1$2[redacted]',
    );

/** A failed call of a mall API; branch on `kind` (or `code`), not on the message. */
export class MallApiError<K extends MallErrorKind = MallErrorKind> extends Error {
  declare readonly kind: K;
  /** The HTTP status; `undefined` for a connection failure or a timeout. */
  declare readonly status: K extends TransportErrorKind ? undefined : number;
  /** The envelope's `error.code` (`not_found`, `invalid_parameter`…), or `connection_failed` / `timeout`. */
  declare readonly code: string;
  /** The envelope's `error.more_info` (violations, required scope…), `{}` when absent. */
  declare readonly moreInfo: Readonly<Record<string, unknown>>;
  declare readonly operationId: string | undefined;
  declare readonly method: string;
  declare readonly path: string;
  /** The parsed error body as the server sent it. */
  declare readonly body: unknown;
  /** The response's headers (`Retry-After`, rate-limit headers…); `undefined` without a response. */
  declare readonly headers: Headers | undefined;
  /** The request ID the service sent (`X-Request-Id` or `Request-Id`), to quote to its support. */
  declare readonly requestId: string | undefined;
  /** Requests sent for the call, retries included. */
  declare readonly attempts: number;
  /** Time the call waited in the rate-limit queue (ms). */
  declare readonly queueWaitMs: number;
  /** Time spent sending and reading, all attempts, queue waits and backoff excluded (ms). */
  declare readonly requestMs: number;

  constructor(details: MallApiErrorDetails<K>) {
    const { message, timing, cause, moreInfo = {}, ...facts } = details;
    const where = `${facts.method} ${facts.path}${facts.operationId ? ` (${facts.operationId})` : ''}`;
    super(redactSecrets(`${where}: ${message}`), { cause });
    Object.assign(
      this,
      { name: 'MallApiError', moreInfo, attempts: 1, queueWaitMs: 0, requestMs: 0 },
      facts,
      timing,
    );
  }
}

/**
 * Whether `value` is a {@link MallApiError}, of one of `kinds` when any are given:
 * `isMallApiError(error, 'timeout', 'connection')`.
 */
export function isMallApiError<K extends MallErrorKind = MallErrorKind>(
  value: unknown,
  ...kinds: readonly K[]
): value is MallApiError<K> {
  return value instanceof MallApiError && (kinds.length === 0 || kinds.includes(value.kind as K));
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;

/**
 * The error for an error `response` answered with `body` (the envelope, or OAuth's `{ error,
 * error_description }`), with the response's headers and request ID.
 */
export function statusError(
  site: CallSite,
  response: Response,
  body: unknown,
  timing?: CallTiming,
): MallApiError {
  const { status, headers } = response;
  const oauth = record(body);
  const envelope = record(oauth?.error);
  const code = envelope?.code ?? oauth?.error;
  const message = envelope?.message ?? oauth?.error_description;
  return new MallApiError({
    ...site,
    kind: errorKindOf(status),
    status,
    code: typeof code === 'string' ? code : `http_${status}`,
    message: `answered ${status}${typeof message === 'string' ? `: ${message}` : ''}`,
    moreInfo: record(envelope?.more_info),
    body,
    headers,
    requestId: headers.get('X-Request-Id') ?? headers.get('Request-Id') ?? undefined,
    timing,
  });
}

/**
 * The error for a call that got no usable answer: a timeout (`TimeoutError`) or a network failure
 * (fetch's `TypeError`); `undefined` for anything else (a caller's abort, an auth error), which
 * the caller rethrows as it is.
 */
export function transportError(
  site: CallSite,
  error: unknown,
  timing?: CallTiming,
): MallApiError | undefined {
  const kind = failureKind(error);
  if (kind === undefined) return undefined;
  const { message, cause } = error as Error;
  const detail = record(cause)?.code ?? record(cause)?.message ?? message;
  return new MallApiError({
    ...site,
    kind,
    status: undefined,
    code: kind === 'timeout' ? kind : 'connection_failed',
    message: kind === 'timeout' ? message : `connection failed (${String(detail)})`,
    timing,
    cause: error,
  });
}
