// Who may reach the control API, checked before a control request is routed or its body read:
// callers on the loopback interface (unless remote callers are allowed), a `Host` that names this
// machine or a configured public host (no DNS-rebound name), no `Origin` but an allowed one (a
// browser page on any other site is refused, so no cross-site request can change a mall), the
// control token when one is set (compared in constant time), and `application/json` as the media
// type of every POST and PUT (parameters ignored; anything else is a 415). The control API sends no
// CORS headers, so a browser never lets another origin read its answers either.
import type { IncomingMessage } from 'node:http';
import { constantTimeEqual } from '@mall-api/auth';
import { isAllowedHost, isLoopbackAddress } from '../http/host-rule.js';
import { mediaTypeOf } from '../http/request-body.js';
import { errorReply, type Reply } from '../pipeline/reply.js';

/** Who may call the control API. */
export interface ControlAccess {
  /** When set, every control call must send it in `X-Mock-Control-Token`. Required when the server listens off loopback. */
  readonly token?: string;
  /** Accept callers that are not on the loopback interface (off by default). */
  readonly allowRemote?: boolean;
  /**
   * Browser origins whose pages may call the control API (a request with any other `Origin` is a
   * 403; requests without one, from programs, pass). Default: {@link defaultControlOrigins}.
   */
  readonly allowedOrigins?: readonly string[];
  /** The largest control request body read, in bytes (default {@link defaultControlBodyLimit}); over it is a 413. */
  readonly maxBodyBytes?: number;
}

/** The documentation site's own origins (`npm start` in docs/ serves it on port 8080). */
export const defaultControlOrigins: readonly string[] = ['http://127.0.0.1:8080', 'http://localhost:8080'];

/** The default limit of a control request body: 16 MiB (fixtures and snapshots of large malls). */
export const defaultControlBodyLimit = 16 * 1024 * 1024;

/** The origin a browser sends, normalized (`null` and malformed origins are undefined). */
function originOf(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** Whether a request's `Origin` header is absent or one of `allowed`. */
export function isAllowedOrigin(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined) return true;
  const origin = originOf(header);
  return origin !== undefined && allowed.some((entry) => originOf(entry) === origin);
}

/**
 * Creates the guard: it answers a refused control request (403, 401 or 415 with the envelope) and
 * returns undefined for one that may go on.
 * @param publicHosts the server's public host names (see `isAllowedHost`)
 */
export function controlGuard(access: ControlAccess, publicHosts: readonly string[] = []) {
  const origins = access.allowedOrigins ?? defaultControlOrigins;
  return (request: IncomingMessage): Reply | undefined => {
    if (!access.allowRemote && !isLoopbackAddress(request.socket.remoteAddress)) {
      return errorReply(403, 'The control API answers loopback callers only.');
    }
    if (!isAllowedHost(request.headers.host, publicHosts)) {
      return errorReply(
        403,
        'The control API answers requests for loopback, *.localhost and the configured public host names only.',
      );
    }
    if (!isAllowedOrigin(request.headers.origin, origins)) {
      return errorReply(403, 'The control API refuses requests from pages of other origins.');
    }
    if (access.token !== undefined) {
      const presented = request.headers['x-mock-control-token'];
      if (typeof presented !== 'string' || !constantTimeEqual(access.token, presented)) {
        return errorReply(401, 'The control API needs the control token in X-Mock-Control-Token.');
      }
    }
    const method = (request.method ?? 'GET').toUpperCase();
    if (
      (method === 'POST' || method === 'PUT') &&
      mediaTypeOf(request.headers['content-type']) !== 'application/json'
    ) {
      return errorReply(415, 'Send control requests as application/json.');
    }
    return undefined;
  };
}
