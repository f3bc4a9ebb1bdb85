// Specification of the OAuth authorization-code client: the authorize URL and state check, the two
// token requests (Basic client credentials, form body), validation of the answer, the typed errors,
// and that no secret or token ever appears in an error.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBasicAuthorization } from './basic.js';
import { AuthError, OAuthError, ReauthorizationRequiredError } from './errors.js';
import {
  buildAuthorizeUrl,
  exchangeCode,
  type FetchFunction,
  refreshToken,
  verifyState,
} from './oauth-client.js';
import { createFakeAuthority } from './testing/fake-authority.js';
import { type FakeTokenEndpoint, startFakeTokenEndpoint } from './testing/fake-token-endpoint.js';

const CLIENT_ID = 'BrIfqEKoPxeE';
const CLIENT_SECRET = 'client-secret-Zq81x';
const REFRESH_TOKEN = 'refresh-token-JeTJ7XpnFC0P';
const ACCESS_TOKEN = 'access-token-21EZes0dGSfN';
const CODE = 'authorization-code-Qx7';

/** The platform's documented refresh answer (oauth-token-refresh-token-1.json, made valid JSON). */
const REFRESH_ANSWER = {
  access_token: ACCESS_TOKEN,
  expires_at: '2021-03-01T15:50:00.000',
  refresh_token: 'xLlhWztQHBik',
  refresh_token_expires_at: '2021-03-15T13:50:00.000',
  client_id: CLIENT_ID,
  mall_id: 'yourmall',
  user_id: 'test',
  scopes: ['mall.read_order', 'mall.read_product', 'mall.read_store'],
  issued_at: '2021-03-01T13:50:00.000',
  shop_no: '1',
  token_type: 'Bearer',
};

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A fetch that records the request and answers `respond()`. */
function recordingFetch(respond: () => Response): { fetch: FetchFunction; requests: Request[] } {
  const requests: Request[] = [];
  return {
    requests,
    fetch: async (request) => {
      requests.push(request);
      return respond();
    },
  };
}

const endpoint = { mallBaseUrl: 'http://127.0.0.1:4011', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function expectNoSecrets(error: unknown, secrets: readonly string[]): void {
  const renderings = [String(error), JSON.stringify(error), inspect(error, { depth: 10 })];
  if (error instanceof Error) renderings.push(error.message, error.stack ?? '');
  for (const rendering of renderings) {
    for (const secret of secrets) expect(rendering).not.toContain(secret);
  }
}

describe('buildAuthorizeUrl', () => {
  const options = {
    mallBaseUrl: 'https://yourmall.cafe24api.com',
    clientId: CLIENT_ID,
    redirectUri: 'https://app.example.com/callback',
    scopes: ['mall.read_product', 'mall.write_product'],
  };

  it('points at /api/v2/oauth/authorize with response_type, client_id, state, redirect_uri and scope', () => {
    const { url, state } = buildAuthorizeUrl(options);
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(
      'https://yourmall.cafe24api.com/api/v2/oauth/authorize',
    );
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      state,
      redirect_uri: 'https://app.example.com/callback',
      scope: 'mall.read_product,mall.write_product',
    });
  });

  it('creates a fresh, unguessable state each time (32 random bytes, base64url)', () => {
    const states = new Set(Array.from({ length: 100 }, () => buildAuthorizeUrl(options).state));
    expect(states.size).toBe(100);
    for (const state of states) expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('uses a given state and the space separator when asked', () => {
    const { url, state } = buildAuthorizeUrl({ ...options, state: 'fixed-state', scopeSeparator: ' ' });
    expect(state).toBe('fixed-state');
    expect(new URL(url).searchParams.get('state')).toBe('fixed-state');
    expect(new URL(url).searchParams.get('scope')).toBe('mall.read_product mall.write_product');
  });

  it('works with any base URL, keeping a path prefix and ignoring a trailing slash', () => {
    const { url } = buildAuthorizeUrl({ ...options, mallBaseUrl: 'http://127.0.0.1:4011/mock/' });
    expect(url.startsWith('http://127.0.0.1:4011/mock/api/v2/oauth/authorize?')).toBe(true);
  });

  it('rejects a base URL that is not absolute', () => {
    expect(() => buildAuthorizeUrl({ ...options, mallBaseUrl: 'yourmall' })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});

describe('verifyState', () => {
  it('accepts the state that was sent', () => {
    const { state } = buildAuthorizeUrl({
      mallBaseUrl: 'http://127.0.0.1:4011',
      clientId: CLIENT_ID,
      redirectUri: 'http://localhost/cb',
      scopes: [],
    });
    expect(() => verifyState(state, state)).not.toThrow();
  });

  it.each([
    ['a different state', 'state-of-the-attacker'],
    ['a prefix of the state', 'expected-sta'],
    ['no state', undefined],
    ['a null state', null],
    ['an empty state', ''],
  ])('rejects %s with code state_mismatch, quoting neither value', (_label, received) => {
    const error = (() => {
      try {
        verifyState('expected-state', received);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'state_mismatch' });
    expectNoSecrets(error, ['expected-state', ...(received ? [received] : [])]);
  });
});

describe('exchangeCode', () => {
  it('POSTs grant_type=authorization_code, code and redirect_uri as a form with Basic client credentials', async () => {
    const { fetch, requests } = recordingFetch(() => jsonResponse(200, REFRESH_ANSWER));
    await exchangeCode({ ...endpoint, fetch, code: CODE, redirectUri: 'https://app.example.com/cb' });
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('http://127.0.0.1:4011/api/v2/oauth/token');
    expect(parseBasicAuthorization(request?.headers.get('authorization'))).toEqual({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
    });
    expect(request?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(await request?.text()))).toEqual({
      grant_type: 'authorization_code',
      code: CODE,
      redirect_uri: 'https://app.example.com/cb',
    });
  });
});

describe('refreshToken', () => {
  it('POSTs grant_type=refresh_token and the refresh token as a form with Basic client credentials', async () => {
    const { fetch, requests } = recordingFetch(() => jsonResponse(200, REFRESH_ANSWER));
    await refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN });
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('http://127.0.0.1:4011/api/v2/oauth/token');
    expect(request?.headers.get('authorization')).toBe(
      `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
    );
    expect(request?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(await request?.text()))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: REFRESH_TOKEN,
    });
  });

  it('returns the token set with the datetimes read as +09:00', async () => {
    const { fetch } = recordingFetch(() => jsonResponse(200, REFRESH_ANSWER));
    const tokens = await refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN });
    expect(tokens).toEqual({
      accessToken: ACCESS_TOKEN,
      accessTokenExpiresAt: new Date('2021-03-01T15:50:00.000+09:00'),
      refreshToken: 'xLlhWztQHBik',
      refreshTokenExpiresAt: new Date('2021-03-15T13:50:00.000+09:00'),
      clientId: CLIENT_ID,
      mallId: 'yourmall',
      userId: 'test',
      scopes: ['mall.read_order', 'mall.read_product', 'mall.read_store'],
      issuedAt: new Date('2021-03-01T13:50:00.000+09:00'),
    });
    expect(tokens.accessTokenExpiresAt.toISOString()).toBe('2021-03-01T06:50:00.000Z');
  });

  it('uses the injected fetch only, and sends the signal along', async () => {
    const controller = new AbortController();
    const { fetch, requests } = recordingFetch(() => jsonResponse(200, REFRESH_ANSWER));
    await refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN, signal: controller.signal });
    controller.abort();
    expect(requests[0]?.signal.aborted).toBe(true);
  });
});

describe('token response validation', () => {
  const required = [
    'access_token',
    'expires_at',
    'refresh_token',
    'refresh_token_expires_at',
    'client_id',
    'mall_id',
    'user_id',
    'scopes',
    'issued_at',
  ] as const;

  it.each(required)('rejects an answer without %s, naming the field', async (field) => {
    const body: Record<string, unknown> = { ...REFRESH_ANSWER };
    delete body[field];
    const { fetch } = recordingFetch(() => jsonResponse(200, body));
    const error = await caught(refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN }));
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ code: 'invalid_token_response', status: 200, context: { field } });
    expect((error as Error).message).toContain(field);
    expectNoSecrets(error, [ACCESS_TOKEN, REFRESH_TOKEN, CLIENT_SECRET, 'xLlhWztQHBik']);
  });

  it.each([
    ['access_token', 42],
    ['access_token', ''],
    ['refresh_token', null],
    ['scopes', 'mall.read_product'],
    ['scopes', ['mall.read_product', 7]],
    ['expires_at', '2021-03-01'],
    ['expires_at', 1614578400000],
    ['issued_at', '2021-02-30T13:50:00.000'],
    ['user_id', { id: 'test' }],
  ])('rejects %s = %j', async (field, value) => {
    const { fetch } = recordingFetch(() => jsonResponse(200, { ...REFRESH_ANSWER, [field]: value }));
    await expect(refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN })).rejects.toMatchObject({
      code: 'invalid_token_response',
      context: { field },
    });
  });

  it.each([
    ['not JSON', new Response('<html>ok</html>', { status: 200 })],
    ['a JSON array', jsonResponse(200, [REFRESH_ANSWER])],
    ['JSON null', jsonResponse(200, null)],
  ])('rejects a 200 answer that is %s', async (_label, response) => {
    const { fetch } = recordingFetch(() => response);
    await expect(refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN })).rejects.toMatchObject({
      code: 'invalid_token_response',
    });
  });
});

describe('token endpoint errors', () => {
  it('turns invalid_grant into ReauthorizationRequiredError (code reauthorization_required)', async () => {
    const { fetch } = recordingFetch(() =>
      jsonResponse(400, { error: 'invalid_grant', error_description: 'Invalid refresh_token' }),
    );
    const error = await caught(refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN }));
    expect(error).toBeInstanceOf(ReauthorizationRequiredError);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({
      code: 'reauthorization_required',
      reason: 'invalid_grant',
      status: 400,
      oauthError: 'invalid_grant',
    });
    expect((error as Error).message).toMatch(/authorize the app again/);
    expect((error as Error).message).toContain('Invalid refresh_token');
  });

  it('says the authorization code is no longer valid when a code exchange gets invalid_grant', async () => {
    const { fetch } = recordingFetch(() => jsonResponse(400, { error: 'invalid_grant' }));
    const error = await caught(exchangeCode({ ...endpoint, fetch, code: CODE, redirectUri: 'http://x/cb' }));
    expect(error).toMatchObject({
      code: 'reauthorization_required',
      context: { grantType: 'authorization_code' },
    });
    expect((error as Error).message).toContain('authorization code is no longer valid');
  });

  it('reports any other error as token_request_failed with the HTTP status and OAuth error code', async () => {
    const { fetch } = recordingFetch(() =>
      jsonResponse(401, { error: 'invalid_client', error_description: 'client authentication failed' }),
    );
    const error = await caught(refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN }));
    expect(error).not.toBeInstanceOf(ReauthorizationRequiredError);
    expect(error).toMatchObject({ code: 'token_request_failed', status: 401, oauthError: 'invalid_client' });
  });

  it('reports a non-JSON error answer by status alone, without quoting the body', async () => {
    const { fetch } = recordingFetch(() => new Response(`upstream said ${REFRESH_TOKEN}`, { status: 502 }));
    const error = await caught(refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN }));
    expect(error).toMatchObject({ code: 'token_request_failed', status: 502, oauthError: undefined });
    expectNoSecrets(error, [REFRESH_TOKEN]);
  });

  it('reports a network failure as token_endpoint_unreachable and keeps the cause', async () => {
    const fetch: FetchFunction = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      });
    };
    const error = await caught(refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN }));
    expect(error).toMatchObject({
      code: 'token_endpoint_unreachable',
      context: { grantType: 'refresh_token' },
    });
    expect((error as Error).cause).toMatchObject({
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED' },
    });
  });

  it('never puts the client secret, the grant (refresh token or code) or a returned token into an error', async () => {
    const echoed = `secret ${CLIENT_SECRET} token ${REFRESH_TOKEN} code ${CODE}`;
    const answers = [
      () => jsonResponse(400, { error: 'invalid_grant', error_description: echoed }),
      () => jsonResponse(400, { error: `invalid_request ${CLIENT_SECRET}`, error_description: echoed }),
      () => jsonResponse(401, { error: 'invalid_client', error_description: echoed }),
      () => jsonResponse(200, { ...REFRESH_ANSWER, scopes: 'bad' }),
      () => new Response(echoed, { status: 500 }),
    ];
    const failingFetch: FetchFunction = async (request) => {
      throw Object.assign(new Error('boom'), { request, body: echoed });
    };
    for (const answer of answers) {
      const { fetch } = recordingFetch(answer);
      const calls: Array<[() => Promise<unknown>, string[]]> = [
        [
          () => refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN }),
          [CLIENT_SECRET, REFRESH_TOKEN],
        ],
        [
          () => exchangeCode({ ...endpoint, fetch, code: CODE, redirectUri: 'http://x/cb' }),
          [CLIENT_SECRET, CODE],
        ],
      ];
      for (const [call, secrets] of calls) {
        const error = await caught(call());
        expect(error).toBeInstanceOf(OAuthError);
        expectNoSecrets(error, [...secrets, ACCESS_TOKEN, 'xLlhWztQHBik']);
      }
    }
    const error = await caught(
      refreshToken({ ...endpoint, fetch: failingFetch, refreshToken: REFRESH_TOKEN }),
    );
    expect(error).toMatchObject({ code: 'token_endpoint_unreachable' });
    expectNoSecrets(error, [CLIENT_SECRET, REFRESH_TOKEN]);
  });

  it('redacts echoed secrets from the error description but keeps the rest', async () => {
    const { fetch } = recordingFetch(() =>
      jsonResponse(400, {
        error: 'invalid_grant',
        error_description: `Invalid refresh_token ${REFRESH_TOKEN}`,
      }),
    );
    const error = await caught(refreshToken({ ...endpoint, fetch, refreshToken: REFRESH_TOKEN }));
    expect((error as Error).message).toContain('Invalid refresh_token [REDACTED]');
  });
});

describe('against a real HTTP token endpoint', () => {
  const authority = createFakeAuthority({ clientId: CLIENT_ID });
  let server: FakeTokenEndpoint;

  beforeAll(async () => {
    server = await startFakeTokenEndpoint({ authority, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  });
  afterAll(async () => {
    await server.close();
  });

  it('exchanges a code once, then refreshes with rotation: the old refresh token requires re-authorization', async () => {
    const options = { mallBaseUrl: server.baseUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
    const code = authority.createCode('http://localhost/cb');
    const first = await exchangeCode({ ...options, code, redirectUri: 'http://localhost/cb' });
    expect(first.accessToken).toBe(authority.current?.accessToken);
    await expect(
      exchangeCode({ ...options, code, redirectUri: 'http://localhost/cb' }),
    ).rejects.toBeInstanceOf(ReauthorizationRequiredError);

    const second = await refreshToken({ ...options, refreshToken: first.refreshToken });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessTokenExpiresAt.getTime() - second.issuedAt.getTime()).toBe(2 * 60 * 60 * 1000);
    await expect(refreshToken({ ...options, refreshToken: first.refreshToken })).rejects.toMatchObject({
      code: 'reauthorization_required',
      status: 400,
    });
    expect(server.received.at(-1)?.contentType).toBe('application/x-www-form-urlencoded');
  });

  it('is refused with invalid_client when the client secret is wrong', async () => {
    const error = await caught(
      refreshToken({
        mallBaseUrl: server.baseUrl,
        clientId: CLIENT_ID,
        clientSecret: 'wrong',
        refreshToken: 'x',
      }),
    );
    expect(error).toMatchObject({ code: 'token_request_failed', status: 401, oauthError: 'invalid_client' });
  });
});
