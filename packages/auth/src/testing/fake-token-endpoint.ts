// Test support: a tiny real HTTP token endpoint (`POST /api/v2/oauth/token` on 127.0.0.1, port 0)
// in front of a FakeAuthority — Basic client authentication, form bodies, RFC 6749 error answers
// and +09:00 datetimes without suffix, like the platform. Records what it received. Not the mock
// server the lead builds; only what the auth tests need.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { credentialsMatch, parseBasicAuthorization } from '../basic.js';
import { formatTokenResponse } from '../token-set.js';
import type { FakeAuthority } from './fake-authority.js';

/** One request the fake endpoint received. */
export interface ReceivedTokenRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly form: URLSearchParams;
}

/** A running fake token endpoint. */
export interface FakeTokenEndpoint {
  /** e.g. `http://127.0.0.1:39123` — use as `mallBaseUrl`. */
  readonly baseUrl: string;
  readonly received: readonly ReceivedTokenRequest[];
  close(): Promise<void>;
}

/** Options of {@link startFakeTokenEndpoint}. */
export interface FakeTokenEndpointOptions {
  readonly authority: FakeAuthority;
  readonly clientId: string;
  readonly clientSecret: string;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Starts the fake endpoint on a free loopback port. */
export async function startFakeTokenEndpoint(options: FakeTokenEndpointOptions): Promise<FakeTokenEndpoint> {
  const received: ReceivedTokenRequest[] = [];
  const expected = { clientId: options.clientId, clientSecret: options.clientSecret };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(request));
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    received.push({
      method: request.method ?? '',
      path,
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      form,
    });
    if (request.method !== 'POST' || path !== '/api/v2/oauth/token') {
      answer(response, 404, { error: 'not_found' });
      return;
    }
    if (!credentialsMatch(expected, parseBasicAuthorization(request.headers.authorization))) {
      answer(response, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
      return;
    }
    const grantType = form.get('grant_type');
    if (grantType === 'refresh_token') {
      try {
        const tokens = await options.authority.refresh(form.get('refresh_token') ?? '');
        answer(response, 200, formatTokenResponse(tokens));
      } catch {
        answer(response, 400, { error: 'invalid_grant', error_description: 'Invalid refresh_token' });
      }
      return;
    }
    if (grantType === 'authorization_code') {
      const tokens = options.authority.redeemCode(form.get('code') ?? '', form.get('redirect_uri') ?? '');
      if (tokens === undefined)
        answer(response, 400, { error: 'invalid_grant', error_description: 'Invalid code' });
      else answer(response, 200, formatTokenResponse(tokens));
      return;
    }
    answer(response, 400, { error: 'unsupported_grant_type' });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      answer(response, 500, { error: 'server_error', error_description: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
