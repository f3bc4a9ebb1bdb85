// The health endpoints of every mock port, for a load balancer or an orchestrator: `/__health`
// (live: the process answers) and `/__ready` (ready to answer: every API of the process listens, it
// is not stopping, and the stores it shares with other replicas answer — the readiness check it is
// given). Both answer any caller without credentials, outside the control API's rules, to any
// method, with a small JSON body (none to HEAD) and no state.
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

/** Whether the stores a process depends on answer now (a PostgreSQL sandbox, say). */
export type ReadinessCheck = () => Promise<boolean>;

/**
 * Creates the readiness of one process (not ready until {@link Health.markReady}); once ready,
 * `/__ready` asks `check` on every request and answers 503 `store-unavailable` while it says false.
 */
export function createHealth(check?: ReadinessCheck): Health {
  let state: 'starting' | 'ready' | 'stopping' = 'starting';
  const reply = (request: IncomingMessage, response: ServerResponse, status: string, ok: boolean) => {
    const body = JSON.stringify({ status });
    response.writeHead(ok ? 200 : 503, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(body),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
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
      if (path === healthPaths.live) reply(request, response, 'live', true);
      else if (state !== 'ready' || !check) reply(request, response, state, state === 'ready');
      else
        void check()
          .catch(() => false)
          .then((ok) => reply(request, response, ok ? 'ready' : 'store-unavailable', ok));
      return true;
    },
  };
}
