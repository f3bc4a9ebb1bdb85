// The mocks' log lines, as text or one JSON object per line: one per request (or that its client gave
// up before the answer) and one per unexpected error with its cause. Only the path is logged, never
// the query (an OAuth code or state travels there), headers (Authorization, cookies) or bodies.

/** How the mocks write their logs. */
export type LogFormat = 'text' | 'json';

/** The request a line is about. */
export interface LoggedRequest {
  readonly api: string;
  readonly method: string | undefined;
  /** The request URL; only its path is written. */
  readonly url: string | undefined;
}

/** The path of a URL without its query; `-` for a request the parser refused, which has none. */
const pathOf = (url: string | undefined) => (url === undefined ? '-' : (url.split('?')[0] ?? ''));

/** The line of one answered request. */
export function requestLine(format: LogFormat, request: LoggedRequest, status: number, ms: number): string {
  const method = request.method ?? '-';
  const path = pathOf(request.url);
  return format === 'json'
    ? JSON.stringify({
        time: new Date().toISOString(),
        level: status >= 500 ? 'error' : 'info',
        event: 'request',
        api: request.api,
        method,
        path,
        status,
        durationMs: Math.round(ms * 10) / 10,
      })
    : `${request.api} ${method} ${path} ${status} ${ms.toFixed(1)}ms`;
}

/** The line of a request its client gave up on before it was answered (closed mid-body): no status was sent. */
export function abortedLine(format: LogFormat, request: LoggedRequest, ms: number): string {
  const method = request.method ?? '-';
  const path = pathOf(request.url);
  return format === 'json'
    ? JSON.stringify({
        time: new Date().toISOString(),
        level: 'info',
        event: 'aborted',
        api: request.api,
        method,
        path,
        durationMs: Math.round(ms * 10) / 10,
      })
    : `${request.api} ${method} ${path} aborted by the client after ${ms.toFixed(1)}ms`;
}

/** The line of an unexpected error while answering a request (a 500), with its cause. */
export function errorLine(format: LogFormat, request: LoggedRequest, error: unknown): string {
  const method = request.method ?? '-';
  const path = pathOf(request.url);
  const cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return format === 'json'
    ? JSON.stringify({
        time: new Date().toISOString(),
        level: 'error',
        event: 'error',
        api: request.api,
        method,
        path,
        error: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      })
    : `${request.api} 500 on ${method} ${path}: ${cause}`;
}

/** A line the command writes about itself (start-up, shutdown), in the same format. */
export function messageLine(
  format: LogFormat,
  message: string,
  fields: Record<string, unknown> = {},
): string {
  return format === 'json'
    ? JSON.stringify({ time: new Date().toISOString(), level: 'info', event: 'message', message, ...fields })
    : message;
}
