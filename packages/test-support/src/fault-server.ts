// A local HTTP server for the clients' failure tests: it listens on 127.0.0.1 on a free port and
// answers each request as a script says — a status with headers and a JSON body, no answer at all,
// a connection dropped before any answer, or one dropped halfway through the body — and records
// every request it received (method, path, body, headers, arrival time). Test code only, exported
// as `@mall-api/test-support/fault-server` by the private test-support package.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server treats one request. */
export type Fault =
  | { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: unknown }
  | 'hang'
  | 'drop'
  | 'drop-mid-body';

/** A request as the server received it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** `Date.now()` when the request had arrived in full. */
  readonly at: number;
}

/** A running fault server. */
export interface FaultServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: readonly ReceivedRequest[];
  /** Stops listening and drops every open connection (hanging ones included). */
  close(): Promise<void>;
}

const send = (response: ServerResponse, fault: Exclude<Fault, string>): void => {
  const body = fault.body === undefined ? '' : JSON.stringify(fault.body);
  response.writeHead(fault.status, {
    ...(body ? { 'Content-Type': 'application/json' } : {}),
    ...fault.headers,
  });
  response.end(body);
};

/**
 * Starts a fault server; `script(index, request)` decides the fate of the request number `index`
 * (0 for the first).
 */
export async function startFaultServer(
  script: (index: number, request: ReceivedRequest) => Fault,
): Promise<FaultServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        body: Buffer.concat(chunks).toString('utf8'),
        headers: incoming.headers,
        at: Date.now(),
      };
      const fault = script(requests.length, request);
      requests.push(request);
      if (fault === 'hang') return;
      if (fault === 'drop') {
        incoming.socket.destroy();
        return;
      }
      if (fault === 'drop-mid-body') {
        response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        response.write('{"shops":[', () => incoming.socket.destroy());
        return;
      }
      send(response, fault);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
