// The health endpoints of every mock port, for a load balancer or an orchestrator: `/__health`
// (live: the process answers) and `/__ready` (ready to answer: every API of the process listens,
// it is not stopping, and the shared state store it depends on, when there is one, is connected).
// Both answer any caller without credentials, outside the control API's
// rules, to any method, with a small JSON body (none to HEAD) and no state.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The paths the health endpoints answer. */
export const healthPaths = { live: '/__health', ready: '/__ready' } as const;

/** Readiness of the mocks of one process. */
export interface Health {
  /** Every API listens: `/__ready` answers 200. */
  markReady(): void;
  /** Shutting down: `/__ready` answers 503 from now on. */
  markStopping(): void;
  /** Answers a health request and returns true; returns false for any other request. */
  answer(request: IncomingMessage, response: ServerResponse): boolean;
}

/** Creates the readiness of one process (not ready until {@link Health.markReady}, nor while `storeReady` says no). */
export function createHealth(storeReady: () => boolean = () => true): Health {
  let state: 'starting' | 'ready' | 'stopping' = 'starting';
  return {
    markReady: () => {
      if (state === 'starting') state = 'ready';
    },
    markStopping: () => {
      state = 'stopping';
    },
    answer(request, response) {
      const path = (request.url ?? '').split('?')[0];
      if (path !== healthPaths.live && path !== healthPaths.ready) return false;
      const live = path === healthPaths.live;
      const status = state === 'ready' && !storeReady() ? 'store-unavailable' : state;
      const body = JSON.stringify({ status: live ? 'live' : status });
      response.writeHead(live || status === 'ready' ? 200 : 503, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        'content-length': Buffer.byteLength(body),
      });
      response.end(request.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
