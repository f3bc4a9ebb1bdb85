// The test helper for vitest or jest: `startMock()` starts the mock APIs on free ports (stateful by
// default), and hands back their base URLs, a per-mall base URL builder, the demo credentials, a
// token helper that runs the real OAuth flow over HTTP for any mall, and the control client. Call
// `close()` in `afterAll`.

import type { MallLimits } from '@mall-api/mall-state';
import { type ApiName, apiNames } from '@mall-api/spec-model';
import { demoCollectionClients, demoOAuthClient } from '../demo-credentials.js';
import { mallPathPrefix } from '../mall-address.js';
import { startMockServers } from '../mock-server.js';
import type { TokenResponseBody } from '../oauth/oauth-authority.js';
import { type ControlClient, createControlClient } from './control-client.js';

/** Options of {@link startMock}. */
export interface StartMockOptions {
  /** The APIs to serve (default: all three). The token helper needs `admin`. */
  apis?: readonly ApiName[];
  /** Stateful sandbox malls (default) or `false` for answers from the spec's examples only. */
  sandbox?: boolean;
  /** The seed of the sample data every new mall starts from (default 1). */
  seed?: number;
  /** Require this token on control calls. */
  controlToken?: string;
  /** Browser origins whose pages may call the control API (default: the docs site's, `http://127.0.0.1:8080` and `http://localhost:8080`). */
  allowedOrigins?: readonly string[];
  /** The largest API request body, in bytes (default 1 MiB); over it is a 413. */
  maxBodyBytes?: number;
  /** The largest control request body, in bytes (default 16 MiB); over it is a 413. */
  maxControlBodyBytes?: number;
  /** Base time of every mall's clock. */
  clock?: () => number;
  /** Named fixtures a mall can be reset to (`control.reset(mall, { fixture: name })`). */
  fixtures?: Readonly<Record<string, unknown>>;
  /** The cap on malls in use and their idle expiry (defaults: 200 malls, one hour). */
  mallLimits?: MallLimits;
  /** Keep the state shared between requests in Redis (`redis://…`), as `--redis` does. */
  redis?: string;
}

/** Running mocks, as a test sees them. */
export interface StartedMock {
  /** Base URL of each API served. */
  readonly urls: Readonly<Partial<Record<ApiName, string>>>;
  /** The base URL of an API at one mall (works where `*.localhost` does not resolve). */
  mallUrl(api: ApiName, mallId: string): string;
  readonly credentials: {
    readonly collection: { readonly clientId: string; readonly clientSecret: string };
    readonly oauthApp: {
      readonly clientId: string;
      readonly clientSecret: string;
      readonly redirectUri: string;
    };
  };
  /** Runs authorize → code → token against the admin mock for a mall; every scope by default. */
  token(mallId: string, scopes?: readonly string[]): Promise<TokenResponseBody>;
  readonly control: ControlClient;
  close(): Promise<void>;
}

const redirectUri = 'http://127.0.0.1:8765/callback';

/** Starts the mocks for a test run. */
export async function startMock(options: StartMockOptions = {}): Promise<StartedMock> {
  const apis = options.apis ?? apiNames;
  const served = await startMockServers({
    apis,
    ports: Object.fromEntries(apis.map((api) => [api, 0])),
    ...(options.sandbox === false
      ? {}
      : {
          sandbox: { seed: options.seed ?? 1, ...(options.fixtures ? { fixtures: options.fixtures } : {}) },
        }),
    ...(options.mallLimits ? { mallLimits: options.mallLimits } : {}),
    ...(options.redis ? { redis: options.redis } : {}),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    control: {
      ...(options.controlToken === undefined ? {} : { token: options.controlToken }),
      ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
      ...(options.maxControlBodyBytes === undefined ? {} : { maxBodyBytes: options.maxControlBodyBytes }),
    },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const urls = Object.fromEntries(served.mocks.map((mock) => [mock.api, mock.url])) as Partial<
    Record<ApiName, string>
  >;
  const anyUrl = served.mocks[0]?.url ?? '';
  const mallUrl = (api: ApiName, mallId: string) => {
    const url = urls[api];
    if (!url) throw new Error(`the ${api} mock is not running`);
    return `${url}${mallPathPrefix}${mallId}`;
  };
  const [collection] = demoCollectionClients;
  return {
    urls,
    mallUrl,
    credentials: {
      collection: { clientId: collection.clientId, clientSecret: collection.clientSecret },
      oauthApp: {
        clientId: demoOAuthClient.clientId,
        clientSecret: demoOAuthClient.clientSecret,
        redirectUri,
      },
    },
    async token(mallId, scopes = served.oauth.scopes) {
      const base = mallUrl('admin', mallId);
      const authorize = new URL(`${base}/api/v2/oauth/authorize`);
      authorize.search = new URLSearchParams({
        response_type: 'code',
        client_id: demoOAuthClient.clientId,
        state: 'start-mock',
        redirect_uri: redirectUri,
        scope: scopes.join(','),
      }).toString();
      const redirect = await fetch(authorize, { redirect: 'manual' });
      const code = new URL(redirect.headers.get('location') ?? '', redirectUri).searchParams.get('code');
      if (!code) throw new Error(`the mock did not issue a code (${redirect.status})`);
      const response = await fetch(`${base}/api/v2/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${demoOAuthClient.clientId}:${demoOAuthClient.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
      });
      if (!response.ok) throw new Error(`the token exchange failed with ${response.status}`);
      return (await response.json()) as TokenResponseBody;
    },
    control: createControlClient(
      anyUrl,
      options.controlToken === undefined ? {} : { token: options.controlToken },
    ),
    close: () => served.close(),
  };
}
