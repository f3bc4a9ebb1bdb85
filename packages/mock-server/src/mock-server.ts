// Starts mock APIs on their TCP ports and stops them cleanly. One process can serve every API,
// each on its own port (collection 4010 by default). Listening and shutdown only; the behaviour of
// each API lives in mock-api.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiName, apiProfiles } from './api-profiles.js';
import { createMockApi, type MockApiOptions } from './mock-api.js';

/** Where and how to serve one API. */
export interface ServeOptions extends MockApiOptions {
  api: ApiName;
  /** TCP port; 0 picks a free one. Defaults to the API's own port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
}

/** A running mock API. */
export interface RunningMock {
  readonly api: ApiName;
  /** e.g. `http://127.0.0.1:4010` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Starts one mock API and resolves once it is listening. */
export async function startMockServer(options: ServeOptions): Promise<RunningMock> {
  const mock = await createMockApi(options.api, options);
  const server: Server = createServer((request, response) => {
    void mock.handle(request, response);
  });
  server.keepAliveTimeout = 5_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? apiProfiles[options.api].defaultPort, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    api: options.api,
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
