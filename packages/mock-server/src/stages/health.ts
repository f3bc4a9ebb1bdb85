// The health endpoints of every mock port, for a load balancer: `/__health` (live) and `/__ready`
// (every API listens, the process is not stopping, and the shared stores answer). Both answer any
// caller and method without credentials, outside the control API's rules, with a small JSON body and
// no state: the `health` branch of a mock API's stages, or answered directly by a port in standby.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Arrival } from '../pipeline/phases.js';
import { type Reply, sendReply } from '../pipeline/reply.js';
import { type Pipeline, pipeline } from '../pipeline/stage.js';

/** The paths the health endpoints answer. */
export const healthPaths = { live: '/__health', ready: '/__ready' } as const;

/** Readiness of the mocks of one process. */
export interface Health {
  /** Every API listens: `/__ready` answers 200. */
  markReady(): void;
  /** Shutting down: `/__ready` answers 503 from now on. */
  markStopping(): void;
  /** The reply of an endpoint. */
  reply(endpoint: HealthEndpoint): Reply | Promise<Reply>;
  /** Answers a health request and returns true; returns false for any other request. */
  answer(request: IncomingMessage, response: ServerResponse): boolean;
}

/** Whether the stores a process depends on answer now (a PostgreSQL sandbox, say). */
export type ReadinessCheck = () => Promise<boolean>;

/** A health endpoint. */
export type HealthEndpoint = keyof typeof healthPaths;

/** The health endpoint a request URL addresses, if any. */
const endpointOf = (url: string | undefined): HealthEndpoint | undefined => {
  const path = (url ?? '').split('?')[0];
  return path === healthPaths.live ? 'live' : path === healthPaths.ready ? 'ready' : undefined;
};

/** Whether a request is for a health endpoint. */
export const isHealthRequest = ({ request }: Arrival): boolean => endpointOf(request.url) !== undefined;

const statusReply = (status: string, ok: boolean): Reply => ({
  status: ok ? 200 : 503,
  headers: { 'cache-control': 'no-store' },
  body: { status },
});

/**
 * Creates the readiness of one process (not ready until {@link Health.markReady}); once ready,
 * `/__ready` asks `check` on every request and answers 503 `store-unavailable` while it says false.
 */
export function createHealth(check?: ReadinessCheck): Health {
  let state: 'starting' | 'ready' | 'stopping' = 'starting';
  const reply = (endpoint: HealthEndpoint) => {
    if (endpoint === 'live') return statusReply('live', true);
    if (state !== 'ready' || !check) return statusReply(state, state === 'ready');
    return check()
      .catch(() => false)
      .then((ok) => statusReply(ok ? 'ready' : 'store-unavailable', ok));
  };
  return {
    markReady: () => {
      if (state === 'starting') state = 'ready';
    },
    markStopping: () => {
      state = 'stopping';
    },
    reply,
    answer(request, response) {
      const endpoint = endpointOf(request.url);
      if (endpoint === undefined) return false;
      void Promise.resolve(reply(endpoint)).then((answered) => sendReply(response, answered, {}));
      return true;
    },
  };
}

/** The health endpoints as a branch of a mock API's stage list (it takes {@link isHealthRequest}'s). */
export const healthBranch = (health: Health): Pipeline<Arrival, never> =>
  pipeline<Arrival>().end({
    name: 'health',
    run: ({ request }) => health.reply(endpointOf(request.url) === 'live' ? 'live' : 'ready'),
  });
