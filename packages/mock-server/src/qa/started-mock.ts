// The handle a test holds on running mocks, wherever they run (in the test's process for the ES
// module's `startMock`, in a child process for the CommonJS one). Everything here speaks HTTP;
// nothing starts a server.

import { basicAuthorization, buildAuthorizeUrl } from '@mall-api/auth';
import type { ApiName } from '@mall-api/spec-model';
import { mallPathPrefix } from '../http/mall-address.js';
import type { TokenResponseBody } from '../oauth/authority-state.js';
import { demoCollectionClients, demoOAuthClient } from '../oauth/demo-credentials.js';
import { type ControlClient, createControlClient } from './control-client.js';
import type { EventReceiver } from './event-receiver.js';

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
  /** The receiver of the malls' events (`startMock({ events: true })`; else its `next` rejects). */
  readonly events: EventReceiver;
  close(): Promise<void>;
}

const redirectUri = 'http://127.0.0.1:8765/callback';

/** Runs the demo app's authorize → code → token flow over HTTP against the admin mock at `base`. */
export async function demoAppToken(base: string, scopes: readonly string[]): Promise<TokenResponseBody> {
  const { clientId, clientSecret } = demoOAuthClient;
  const authorize = buildAuthorizeUrl({
    mallBaseUrl: base,
    clientId,
    redirectUri,
    scopes,
    state: 'start-mock',
  });
  const redirect = await fetch(authorize.url, { redirect: 'manual' });
  const code = new URL(redirect.headers.get('location') ?? '', redirectUri).searchParams.get('code');
  if (!code) throw new Error(`the mock did not issue a code (${redirect.status})`);
  const response = await fetch(`${base}/api/v2/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: basicAuthorization(clientId, clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
  });
  if (!response.ok) throw new Error(`the token exchange failed with ${response.status}`);
  return (await response.json()) as TokenResponseBody;
}

/** The handle of mocks serving `urls`, granting `scopes`, stopped by `close`. */
export function startedMock(served: {
  urls: Partial<Record<ApiName, string>>;
  scopes: readonly string[];
  controlToken: string | undefined;
  events?: EventReceiver;
  close: () => Promise<void>;
}): StartedMock {
  const { urls } = served;
  const anyUrl = Object.values(urls)[0] ?? '';
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
    token: (mallId, scopes = served.scopes) => demoAppToken(mallUrl('admin', mallId), scopes),
    control: createControlClient(anyUrl, { token: served.controlToken }),
    events: served.events ?? noReceiver,
    close: served.close,
  };
}

/** What `events` is when no receiver was asked for: it says how to get one. */
const noReceiver: EventReceiver = {
  url: '',
  received: [],
  next: () => Promise.reject(new Error('start the mocks with startMock({ events: true }) to receive events')),
  answer() {},
  close: async () => {},
};
