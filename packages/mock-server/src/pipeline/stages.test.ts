// Each stage of the front layer on its own, over exchanges built without HTTP: what it answers,
// what it passes on, and what it records on the exchange for the stages after it.
import { createServerLimiter } from '@mall-api/rate-limit';
import type { SandboxCall, SandboxGateway } from '@mall-api/sandbox/protocol';
import { loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { createBasicGuard } from '../basic-guard.js';
import { demoCollectionCredentials, demoOAuthApp } from '../demo-credentials.js';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { createOAuthAuthority } from '../oauth/oauth-authority.js';
import { createOperationRuntime } from '../operation-runtime.js';
import type { Reply } from './reply.js';
import { runStages, type Stage } from './stage.js';
import { answer } from './stages/answer.js';
import { httpsOnly } from './stages/https-only.js';
import { identifyCaller } from './stages/identify-caller.js';
import { knownOperation } from './stages/known-operation.js';
import { oauthEndpoints } from './stages/oauth-endpoints.js';
import { rateLimit } from './stages/rate-limit.js';
import { readBody } from './stages/read-body.js';
import { requireCredentials } from './stages/require-credentials.js';
import { scope } from './stages/scope.js';
import { validateRequest } from './stages/validate-request.js';
import { type FakeRequest, fakeExchange } from './testing/fake-request.js';

const collection = await loadSpec('collection');
const admin = await loadSpec('admin');
const authority = createOAuthAuthority({ apps: [demoOAuthApp] });
const sources = { basic: createBasicGuard(demoCollectionCredentials), authority };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const partner = basic('demo-partner', 'demo-partner-secret');
const bearer = (scopes: string[], mall = 'stagemall') =>
  `Bearer ${issueDemoTokens(authority, scopes, mall).access_token}`;
const noEngine = () => Promise.reject(new Error('Prism is not needed here'));

const errorOf = (reply: Reply | undefined) =>
  (reply?.body as { error: { code: string; message: string; more_info: unknown } } | undefined)?.error;

/** Runs `stages` over an admin exchange, the caller identified first. */
async function adminThrough(stages: Stage[], request: FakeRequest) {
  const exchange = fakeExchange('admin', admin, request);
  identifyCaller(sources).run(exchange);
  for (const stage of stages) {
    const reply = await stage.run(exchange);
    if (reply) return { exchange, reply };
  }
  return { exchange, reply: undefined };
}

describe('parsing a request once', () => {
  it('routes, reads the preference and drops the mock’s own parameters from the query', () => {
    const exchange = fakeExchange('admin', admin, {
      url: '/api/v2/admin/products/count?__code=404&display=T',
      headers: { prefer: 'example=other', host: 'qa1.localhost:4011' },
    });
    expect(exchange.route?.operation.operationId).toBe('countProducts');
    expect(exchange.preference).toEqual({ code: 404, example: 'other' });
    expect([...exchange.query.keys()]).toEqual(['display']);
    expect(exchange.hostMall).toBe('qa1');
  });
});

describe('identify-caller', () => {
  it('records valid Basic credentials with their scopes and never answers', () => {
    const exchange = fakeExchange('collection', collection, {
      url: '/api/shops',
      headers: { authorization: partner },
    });
    expect(identifyCaller(sources).run(exchange)).toBeUndefined();
    expect(exchange.caller).toMatchObject({ ok: true, principal: { clientId: 'demo-partner' } });
  });
  it('records a missing credential as a failure with a reason', () => {
    const exchange = fakeExchange('collection', collection, { url: '/api/shops' });
    identifyCaller(sources).run(exchange);
    expect(exchange.caller).toMatchObject({ ok: false, message: expect.stringMatching(/Basic credentials/) });
  });
});

describe('rate-limit', () => {
  it('keeps the headers, answers 429 past the limit, and counts each mall apart', async () => {
    const limiter = createServerLimiter({ api: 'admin' });
    const stage = rateLimit(() => limiter, 'mall');
    const request = {
      url: '/api/v2/admin/categories',
      headers: { authorization: bearer(['mall.read_category'], 'busy') },
    };
    let last: Reply | undefined;
    for (let i = 0; i < 41; i++) last = (await adminThrough([stage], request)).reply;
    expect(last?.status).toBe(429);
    expect(errorOf(last)?.code).toBe('too_many_requests');
    const other = await adminThrough([stage], {
      url: '/api/v2/admin/categories',
      headers: { authorization: bearer(['mall.read_category'], 'quiet') },
    });
    expect(other.reply).toBeUndefined();
    expect(other.exchange.limitHeaders['X-Api-Call-Limit']).toBe('1/40');
  });
});

describe('oauth-endpoints', () => {
  it('passes a request for a documented response on as the OAuth client', async () => {
    const { exchange, reply } = await adminThrough([oauthEndpoints(authority)], {
      url: '/api/v2/oauth/token',
      method: 'POST',
      headers: { prefer: 'code=400' },
    });
    expect(reply).toBeUndefined();
    expect(exchange.caller).toMatchObject({ ok: true, principal: { clientId: 'oauth' } });
  });
  it('leaves other paths alone and answers OAuth requests itself', async () => {
    expect(
      (await adminThrough([oauthEndpoints(authority)], { url: '/api/v2/admin/categories' })).reply,
    ).toBeUndefined();
    const { reply } = await adminThrough([oauthEndpoints(authority)], {
      url: '/api/v2/oauth/authorize?response_type=code&client_id=nobody&redirect_uri=http://127.0.0.1:1/callback',
    });
    expect(reply?.status).toBeGreaterThanOrEqual(300);
  });
});

describe('https-only', () => {
  it('refuses a request that came over plain HTTP and passes others', () => {
    expect(
      httpsOnly.run(fakeExchange('admin', admin, { url: '/', headers: { 'x-forwarded-proto': 'http' } })),
    ).toMatchObject({ status: 403 });
    expect(
      httpsOnly.run(fakeExchange('admin', admin, { url: '/', headers: { 'x-forwarded-proto': 'https' } })),
    ).toBeUndefined();
  });
});

describe('require-credentials', () => {
  it('answers 401 with the reason identify-caller found', async () => {
    const { reply } = await adminThrough([requireCredentials], {
      url: '/api/v2/admin/categories',
      headers: { authorization: 'Bearer nope' },
    });
    expect(reply?.status).toBe(401);
    expect(errorOf(reply)?.message).toBe('The access token is invalid.');
  });
});

describe('known-operation', () => {
  it('answers 404 for a path or method the API lacks', () => {
    expect(knownOperation.run(fakeExchange('admin', admin, { url: '/api/v2/admin/nothing' }))).toMatchObject({
      status: 404,
    });
    expect(
      knownOperation.run(
        fakeExchange('admin', admin, { url: '/api/v2/admin/categories/1', method: 'PATCH' }),
      ),
    ).toMatchObject({ status: 404 });
    expect(
      knownOperation.run(fakeExchange('admin', admin, { url: '/api/v2/admin/categories/1' })),
    ).toBeUndefined();
  });
});

describe('scope', () => {
  it('answers 403 naming the scope the token lacks', async () => {
    const { reply } = await adminThrough([scope], {
      url: '/api/v2/admin/products',
      headers: { authorization: bearer(['mall.read_category']) },
    });
    expect(reply?.status).toBe(403);
    expect(errorOf(reply)?.more_info).toEqual({
      required_scope: 'mall.read_product',
    });
  });
  it('passes a token that holds the scope', async () => {
    expect(
      (
        await adminThrough([scope], {
          url: '/api/v2/admin/products',
          headers: { authorization: bearer(['mall.read_product']) },
        })
      ).reply,
    ).toBeUndefined();
  });
  it('answers the collection API’s missing scope with 401', async () => {
    const exchange = fakeExchange('collection', collection, {
      url: '/api/products?collection_product_category=C1',
      headers: { authorization: basic('shops-only-partner', 'shops-only-secret') },
    });
    identifyCaller(sources).run(exchange);
    expect(scope.run(exchange)).toMatchObject({ status: 401 });
  });
});

describe('read-body', () => {
  const write = (body: string, contentType = 'application/json') => ({
    url: '/api/v2/admin/categories',
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  it('parses a JSON body onto the exchange', async () => {
    const { exchange, reply } = await adminThrough([readBody()], write('{"shop_no":1}'));
    expect(reply).toBeUndefined();
    expect(exchange.body).toEqual({ shop_no: 1 });
  });
  it('answers 400 for a body that is not JSON or not declared as JSON', async () => {
    expect((await adminThrough([readBody()], write('{oops'))).reply?.status).toBe(400);
    expect((await adminThrough([readBody()], write('{}', 'text/plain'))).reply?.status).toBe(400);
  });
  it('answers 413 for a declared Content-Length over the limit without reading the body', async () => {
    const request = {
      ...write('{"shop_no":1}'),
      headers: { 'content-type': 'application/json', 'content-length': '17' },
    };
    const { exchange, reply } = await adminThrough([readBody(16)], request);
    expect(reply?.status).toBe(413);
    expect(errorOf(reply)?.code).toBe('payload_too_large');
    expect(reply?.headers).toMatchObject({ connection: 'close' });
    expect(exchange.request.readableFlowing).toBeNull();
  });
  it('stops reading a chunked body as soon as it passes the limit', async () => {
    const chunks = ['{"a":"', 'x'.repeat(10), 'y'.repeat(10), 'z'.repeat(10), '"}'];
    const { exchange, reply } = await adminThrough([readBody(20)], { ...write(''), body: chunks });
    expect(reply?.status).toBe(413);
    expect(exchange.request.readableEnded).toBe(false);
  });
  it('reads a body exactly at the limit', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(20) });
    const { exchange, reply } = await adminThrough([readBody(body.length)], write(body));
    expect(reply).toBeUndefined();
    expect(exchange.body).toEqual({ name: 'x'.repeat(20) });
  });
  it('ignores Content-Type on an operation without a body', async () => {
    const { reply } = await adminThrough([readBody()], {
      url: '/api/v2/admin/categories',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply).toBeUndefined();
  });
});

describe('validate-request', () => {
  const runtime = () =>
    createOperationRuntime(admin, noEngine, {
      specDigest: admin.digest,
      operations: new Proxy({}, { get: () => ({}) }),
    });
  it('keeps the converted parameters for the answer', async () => {
    const { exchange, reply } = await adminThrough([validateRequest(runtime())], {
      url: '/api/v2/admin/products?limit=5&product_no=1,2&display=T',
    });
    expect(reply).toBeUndefined();
    expect(exchange.parameters?.query).toMatchObject({ limit: 5, product_no: [1, 2], display: 'T' });
  });
  it('answers 422 naming every violated parameter', async () => {
    const { reply } = await adminThrough([validateRequest(runtime())], {
      url: '/api/v2/admin/products?limit=101&display=X',
    });
    expect(reply?.status).toBe(422);
    expect(errorOf(reply)?.message).toMatch(/limit/);
    expect(errorOf(reply)?.message).toMatch(/display/);
  });
  it('skips the checks when the caller asks for a documented error', async () => {
    const { reply } = await adminThrough([validateRequest(runtime())], {
      url: '/api/v2/admin/products?limit=101',
      headers: { prefer: 'code=404' },
    });
    expect(reply).toBeUndefined();
  });
  it('accepts a path id repeated in the query when it agrees, and names it when it does not', async () => {
    const agreeing = await adminThrough([validateRequest(runtime())], {
      url: '/api/v2/admin/categories/28?category_no=28',
    });
    expect(agreeing.reply).toBeUndefined();
    const differing = await adminThrough([validateRequest(runtime())], {
      url: '/api/v2/admin/categories/28?category_no=29',
    });
    expect(differing.reply?.status).toBe(422);
    expect(errorOf(differing.reply)?.message).toMatch(/^category_no /);
  });
});

describe('answer', () => {
  const calls: SandboxCall[] = [];
  const sandbox: SandboxGateway = {
    handles: (_api, operationId) => operationId === 'getCategory',
    handle: (call) => {
      calls.push(call);
      return { ok: false, reason: 'not-found', message: 'no such category', violations: [] };
    },
  };
  const prepared = {
    status: 200,
    headers: {},
    contentType: 'application/json',
    payload: '{"from":"example"}',
  };
  const runtime = createOperationRuntime(admin, noEngine, {
    specDigest: admin.digest,
    operations: new Proxy({}, { get: () => ({ '|': prepared, '200|': prepared }) }),
  });
  const stage = answer({ runtime, sandbox });

  it('hands the sandbox the converted parameters and the caller’s mall, and maps a refusal to the envelope', async () => {
    const { exchange } = await adminThrough([validateRequest(runtime)], {
      url: '/api/v2/admin/categories/7?shop_no=2',
      headers: { authorization: bearer(['mall.read_category'], 'answermall') },
    });
    const reply = await stage.run(exchange);
    expect(reply?.status).toBe(404);
    expect(errorOf(reply)).toEqual({ code: 'not_found', message: 'no such category', more_info: {} });
    expect(calls.at(-1)).toMatchObject({
      operationId: 'getCategory',
      path: { category_no: 7 },
      query: { shop_no: 2 },
      mallId: 'answermall',
    });
  });
  it('answers from the documented examples when the sandbox has no handler or the caller asked for one', async () => {
    const before = calls.length;
    const listed = fakeExchange('admin', admin, { url: '/api/v2/admin/categories' });
    expect((await stage.run(listed))?.prepared?.payload).toBe('{"from":"example"}');
    const asked = fakeExchange('admin', admin, {
      url: '/api/v2/admin/categories/7',
      headers: { prefer: 'code=200' },
    });
    expect((await stage.run(asked))?.prepared).toBe(prepared);
    expect(calls.length).toBe(before);
  });
});

describe('running the stages', () => {
  it('stops at the first stage that answers', async () => {
    const seen: string[] = [];
    const passing = (name: string): Stage => ({ name, run: () => void seen.push(name) });
    const answering: Stage = { name: 'answers', run: () => ({ status: 204, headers: {}, body: undefined }) };
    const outcome = await runStages(
      [passing('a'), answering, passing('never')],
      fakeExchange('admin', admin, { url: '/' }),
    );
    expect(outcome.stage).toBe('answers');
    expect(seen).toEqual(['a']);
  });
});
