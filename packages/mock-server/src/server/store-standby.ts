// Starting a replica whose shared stores (PostgreSQL, Redis) may not answer yet, instead of exiting:
// until a TCP probe of each store succeeds (exponential backoff), every port listens in standby
// (`/__health` live, `/__ready` and every other request 503). Then the standby ports close and the
// real mocks start on the same ports (a port chosen as 0 keeps the number the standby got); a start
// that still fails on a store outage goes back to standby, any other failure is thrown. Not here: a
// store that goes away later (each store answers 503 and recovers).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { errorEnvelope } from '../http/error-envelope.js';
import { answerMalformedRequests } from '../http/malformed-http.js';
import { type ApiName, apiProfiles } from '../identity/api-profiles.js';
import { createHealth } from '../stages/health.js';

/** How a replica waits for its stores. */
export interface StandbyOptions<T> {
  /** The stores' URLs (`postgres://…`, `redis://…`). */
  readonly stores: readonly string[];
  readonly apis: readonly ApiName[];
  readonly host: string;
  /** The chosen port of each API (default: its profile's; 0: any free one). */
  readonly ports: Partial<Record<ApiName, number>>;
  /** Starts the real mocks on these ports. */
  start(ports: Partial<Record<ApiName, number>>): Promise<T>;
  /** Where waiting is reported (one line per attempt). */
  say(message: string, fields?: Record<string, unknown>): void;
  /** The first wait and the longest (default 250 ms and 5 s). */
  readonly backoffMs?: { readonly first: number; readonly most: number };
}

/** Failures that mean a store does not answer (yet), by code, anywhere in the cause chain. */
const outageCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // PostgreSQL: admin shutdown
  '57P03', // PostgreSQL: cannot connect now (starting up)
  '08001',
  '08006',
  'store_unavailable',
]);

/** Whether a start failed because a store did not answer. */
export function isStoreOutage(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && outageCodes.has(code)) return true;
    if (/cannot reach Redis|Connection terminated|connection timeout/i.test(current.message)) return true;
    if (current instanceof AggregateError && current.errors.some(isStoreOutage)) return true;
    current = current.cause;
  }
  return false;
}

/** The first store of `stores` that does not accept a TCP connection, with why; undefined: all do. */
async function unreachableStore(stores: readonly string[]): Promise<string | undefined> {
  for (const store of stores) {
    const url = new URL(store);
    const port = Number(url.port || (url.protocol.startsWith('redis') ? 6379 : 5432));
    const host = url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
    const refused = await new Promise<string | undefined>((resolve) => {
      const socket = connect({ host, port, timeout: 2_000 });
      socket.once('connect', () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.once('timeout', () => {
        socket.destroy();
        resolve('no answer in 2 s');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    if (refused) return `${url.protocol.replace(/:$/, '')} at ${host}:${port} (${refused})`;
  }
  return undefined;
}

/** Listens on every API's port in standby; the ports it got and how to close them. */
async function listenInStandby(
  apis: readonly ApiName[],
  host: string,
  ports: Partial<Record<ApiName, number>>,
): Promise<{ ports: Partial<Record<ApiName, number>>; close(): Promise<void> }> {
  const health = createHealth();
  const body = JSON.stringify(
    errorEnvelope(503, 'The mock is starting: its shared stores (PostgreSQL, Redis) do not answer yet.'),
  );
  const servers: Server[] = [];
  const close = () =>
    Promise.all(
      servers.map((server) => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      }),
    ).then(() => undefined);
  const got: Partial<Record<ApiName, number>> = {};
  try {
    for (const api of apis) {
      const server = createServer((request, response) => {
        if (health.answer(request, response)) return;
        response.writeHead(503, {
          'content-type': 'application/json',
          'retry-after': '1',
          'content-length': Buffer.byteLength(body),
        });
        response.end(body);
      });
      answerMalformedRequests(server);
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(ports[api] ?? apiProfiles[api].defaultPort, host, () => resolve());
      });
      got[api] = (server.address() as AddressInfo).port;
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { ports: got, close };
}

/**
 * Starts the mocks once their stores answer, listening in standby meanwhile (see the header);
 * resolves with what `start` gave.
 */
export async function startWhenStoresAnswer<T>(options: StandbyOptions<T>): Promise<T> {
  const { first, most } = options.backoffMs ?? { first: 250, most: 5_000 };
  let wait = first;
  let standby: Awaited<ReturnType<typeof listenInStandby>> | undefined;
  for (;;) {
    const unreachable = await unreachableStore(options.stores);
    if (!unreachable) {
      const ports = standby?.ports ?? options.ports;
      await standby?.close();
      standby = undefined;
      try {
        return await options.start(ports);
      } catch (error) {
        if (!isStoreOutage(error)) throw error;
        options.say(
          `the shared stores do not answer yet (${error instanceof Error ? error.message : String(error)}); retrying in ${wait} ms`,
          { retryInMs: wait },
        );
        standby = await listenInStandby(options.apis, options.host, ports);
      }
    } else {
      if (!standby) {
        standby = await listenInStandby(options.apis, options.host, options.ports);
        for (const api of options.apis)
          options.say(
            `mock ${api} API listening on http://${options.host}:${standby.ports[api]} (not ready: waiting for its stores)`,
            { api, standby: true },
          );
      }
      options.say(`waiting for ${unreachable}; retrying in ${wait} ms`, { retryInMs: wait });
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, most);
  }
}
