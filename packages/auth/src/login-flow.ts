// The developer login: runs the authorization-code flow for one mall from a terminal. It listens
// on a loopback callback (`http://127.0.0.1:<port>/callback`), hands the user the authorize URL,
// checks the returned state, exchanges the code and stores the tokens. It never prints or returns
// a token; the store holds them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthError } from './errors.js';
import { buildAuthorizeUrl, exchangeCode, type FetchFunction, verifyState } from './oauth-client.js';
import type { TokenSet } from './token-set.js';
import type { TokenStore } from './token-store.js';

/** Options of {@link loginWithLoopback}. */
export interface LoopbackLoginOptions {
  mallId: string;
  /** `https://{mall_id}.cafe24api.com`, or the local admin mock `http://127.0.0.1:4011`. */
  mallBaseUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  store: TokenStore;
  /** Loopback port for the callback; 0 (default) picks a free one. */
  port?: number;
  /** Gives the user the authorize URL (print it, open a browser). */
  presentAuthorizeUrl: (url: string) => void;
  /** Gives up after this long without a callback; default 5 minutes. */
  timeoutMs?: number;
  fetch?: FetchFunction;
}

/** What a successful login stored (no secrets). */
export interface LoginSummary {
  mallId: string;
  userId: string;
  scopes: readonly string[];
  accessTokenExpiresAt: Date;
  refreshTokenExpiresAt: Date;
}

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

/** Runs the flow; resolves once the tokens are stored. */
export async function loginWithLoopback(options: LoopbackLoginOptions): Promise<LoginSummary> {
  let settle: { resolve: (tokens: TokenSet) => void; reject: (error: Error) => void } | undefined;
  const outcome = new Promise<TokenSet>((resolve, reject) => {
    settle = { resolve, reject };
  });
  let expectedState = '';
  let redirectUri = '';
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      return;
    }
    const finish = (status: number, title: string, text: string, result: TokenSet | Error) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page(title, text));
      if (result instanceof Error) settle?.reject(result);
      else settle?.resolve(result);
    };
    const error = url.searchParams.get('error');
    if (error) {
      finish(
        400,
        'Login failed',
        'The mall refused the authorization.',
        new AuthError('invalid_argument', `authorization refused: ${error}`),
      );
      return;
    }
    try {
      verifyState(expectedState, url.searchParams.get('state'));
    } catch (mismatch) {
      finish(400, 'Login failed', 'The state did not match; start again.', mismatch as Error);
      return;
    }
    exchangeCode({
      mallBaseUrl: options.mallBaseUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      code: url.searchParams.get('code') ?? '',
      redirectUri,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    })
      .then(async (tokens) => {
        await options.store.set(options.mallId, tokens);
        finish(200, 'Logged in', 'The tokens are stored. You can close this window.', tokens);
      })
      .catch((failure: Error) => finish(502, 'Login failed', 'The code could not be exchanged.', failure));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const timer = setTimeout(
    () => settle?.reject(new AuthError('invalid_argument', 'no authorization arrived in time')),
    options.timeoutMs ?? 5 * 60_000,
  );
  try {
    redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
    const authorize = buildAuthorizeUrl({
      mallBaseUrl: options.mallBaseUrl,
      clientId: options.clientId,
      redirectUri,
      scopes: options.scopes,
    });
    expectedState = authorize.state;
    options.presentAuthorizeUrl(authorize.url);
    const tokens = await outcome;
    return {
      mallId: tokens.mallId,
      userId: tokens.userId,
      scopes: tokens.scopes,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    };
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
