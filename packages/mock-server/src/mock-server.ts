// Starts mock APIs on their TCP ports and stops them cleanly. One process can serve every API,
// each on its own port (collection 4010, admin 4011, analytics 4012 by default), sharing one
// OAuth authority so tokens from the admin mock's OAuth work on the analytics mock. Listening and
// shutdown only; the behaviour of each API lives in mock-api.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiName, apiProfiles } from './api-profiles.js';
import { demoOAuthApp } from './demo-credentials.js';
import { createMockApi, type MockApiOptions } from './mock-api.js';
import { createOAuthAuthority, type OAuthAuthority } from './oauth/oauth-authority.js';

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

/** Options for serving several APIs together. */
export interface ServeManyOptions extends Omit<MockApiOptions, 'limiter'> {
  apis?: readonly ApiName[];
  host?: string;
  /** Port per API; 0 picks a free one. Defaults to each API's own port. */
  ports?: Partial<Record<ApiName, number>>;
  /** Clock of the shared OAuth authority (tests pass a simulated one). */
  clock?: () => number;
}

/** Starts several mock APIs that share one OAuth authority (created with the demo app unless given). */
export async function startMockServers(
  options: ServeManyOptions = {},
): Promise<{ mocks: RunningMock[]; authority: OAuthAuthority; close(): Promise<void> }> {
  const authority =
    options.authority ??
    createOAuthAuthority({ apps: [demoOAuthApp], ...(options.clock ? { clock: options.clock } : {}) });
  const mocks: RunningMock[] = [];
  try {
    for (const api of options.apis ?? (Object.keys(apiProfiles) as ApiName[])) {
      const port = options.ports?.[api];
      mocks.push(
        await startMockServer({ ...options, api, authority, ...(port !== undefined ? { port } : {}) }),
      );
    }
  } catch (error) {
    await Promise.all(mocks.map((mock) => mock.close()));
    throw error;
  }
  return { mocks, authority, close: async () => void (await Promise.all(mocks.map((mock) => mock.close()))) };
}
