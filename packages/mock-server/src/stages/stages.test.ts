// Each stage of the front layer on its own, over phases built without HTTP: what it answers, and
// what it passes on (the facts it adds) for the stages after it.
import { createFaultRules } from '@mall-api/mall-state';
import { createServerLimiter } from '@mall-api/rate-limit';
import type { SandboxCall, SandboxGateway } from '@mall-api/sandbox/protocol';
import { declaredApiVersionsOf, loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { createBasicGuard } from '../identity/basic-guard.js';
import { demoCollectionCredentials, demoOAuthApp } from '../oauth/demo-credentials.js';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { createOAuthAuthority } from '../oauth/oauth-authority.js';
import { platformOAuthSettings } from '../oauth/platform-oauth.js';
import { scopeAliasesFromSpec } from '../oauth/scope-names.js';
import { createOperationRuntime } from '../operations/operation-runtime.js';
import type { Arrival, Identified, Metered } from '../pipeline/phases.js';
import type { Reply } from '../pipeline/reply.js';
import { type FakeRequest, fakeArrival, passedOn } from '../pipeline/testing/fake-request.js';
import { answer } from './answer.js';
import { apiVersion } from './api-version.js';
import { faults } from './faults.js';
import { httpsOnly } from './https-only.js';
import { identifyCaller } from './identify-caller.js';
import { knownOperation } from './known-operation.js';
import { oauthEndpoints } from './oauth-endpoints.js';
import { rateLimit } from './rate-limit.js';
import { readBody } from './read-body.js';
import { requireCredentials } from './require-credentials.js';
import { scope } from './scope.js';
import { validateRequest } from './validate-request.js';

const collection = await loadSpec('collection');
const admin = await loadSpec('admin');
const oauth = await platformOAuthSettings();
const authority = createOAuthAuthority({ apps: [demoOAuthApp(oauth)], settings: oauth });
const sources = { basic: createBasicGuard(demoCollectionCredentials(collection)), authority };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const partner = basic('demo-partner', 'demo-partner-secret');
const bearer = async (scopes: string[], mall = 'stagemall') =>
  `Bearer ${(await issueDemoTokens(authority, scopes, mall)).access_token}`;
const noEngine = () => Promise.reject(new Error('Prism is not needed here'));
const adminScopes = scopeAliasesFromSpec(admin.document);

const errorOf = (reply: Reply | undefined) =>
  (reply?.body as { error: { code: string; message: string; more_info: unknown } } | undefined)?.error;

/** A request identified as identify-caller does it. */
const identified = (api: 'admin' | 'collection', request: FakeRequest): Promise<Identified> =>
  passedOn(identifyCaller(sources), fakeArrival(api, api === 'admin' ? admin : collection, request));

/** An admin request identified and counted (no limit headers of its own). */
const metered = async (request: FakeRequest): Promise<Metered> => ({
  ...(await identified('admin', request)),
  listed: Promise.resolve(true),
  limitHeaders: {},
});

/** An admin request that went through every stage up to the scope check. */
const authorizedAdmin = async (request: FakeRequest) =>
  passedOn(knownOperation, await passedOn(requireCredentials, await metered(request)));

describe('parsing a request once', () => {
  it('routes, reads the preference, decides the mode and drops the mock’s own parameters from the query', () => {
    const arrival = fakeArrival('admin', admin, {
      url: '/api/v2/admin/products/count?__code=404&display=T',
      headers: { prefer: 'example=other', host: 'qa1.localhost:4011' },
    });
    expect(arrival.route?.operation.operationId).toBe('countProducts');
    expect(arrival.preference).toEqual({ code: 404, example: 'other' });
    expect(arrival.mode).toEqual({ documented: true, documentedError: true });
    expect([...arrival.query.keys()]).toEqual(['display']);
    expect(arrival.namedMall).toBe('qa1');
  });
  it('leaves the mode live when no documented response is asked for', () => {
    const arrival = fakeArrival('admin', admin, { url: '/api/v2/admin/products?__code=200' });
    expect(arrival.mode).toEqual({ documented: true, documentedError: false });
    expect(fakeArrival('admin', admin, { url: '/api/v2/admin/products' }).mode.documented).toBe(false);
  });
});

describe('identify-caller', () => {
  it('passes valid Basic credentials on with their scopes, for the demo mall', async () => {
    const phase = await identified('collection', { url: '/api/shops', headers: { authorization: partner } });
    expect(phase.caller).toMatchObject({ ok: true, principal: { clientId: 'demo-partner' } });
    expect(phase.mallId).toBe('demomall');
  });
  it('passes a missing credential on as a failure with a reason', async () => {
    const phase = await identified('collection', { url: '/api/shops' });
    expect(phase.caller).toMatchObject({ ok: false, message: expect.stringMatching(/Basic credentials/) });
  });
  it('decides the mall once: the named one, else the token’s', async () => {
    const token = await bearer(['mall.read_category'], 'tokenmall');
    const unnamed = await identified('admin', {
      url: '/api/v2/admin/categories',
      headers: { authorization: token },
    });
    expect(unnamed.mallId).toBe('tokenmall');
    const elsewhere = await identified('admin', {
      url: '/__mall/othermall/api/v2/admin/categories',
      headers: { authorization: token },
    });
    expect(elsewhere.mallId).toBe('othermall');
    expect(elsewhere.caller).toEqual({ ok: false, message: 'The access token was issued for another mall.' });
  });
});

describe('rate-limit', () => {
  it('passes the limit headers on, answers 429 past the limit with them, and counts each mall apart', async () => {
    const limiter = createServerLimiter({ api: 'admin' });
    const stage = rateLimit(() => limiter, 'mall');
    const request = {
      url: '/api/v2/admin/categories',
      headers: { authorization: await bearer(['mall.read_category'], 'busy') },
    };
    let last: Awaited<ReturnType<typeof stage.run>> | undefined;
    for (let i = 0; i < 41; i++) last = await stage.run(await identified('admin', request));
    expect(last && 'status' in last ? last.status : undefined).toBe(429);
    const refused = last as Reply;
    expect(errorOf(refused)?.code).toBe('too_many_requests');
    expect(refused.limitHeaders?.['X-Api-Call-Limit']).toBe('40/40');
    const other = await passedOn(
      stage,
      await identified('admin', {
        url: '/api/v2/admin/categories',
        headers: { authorization: await bearer(['mall.read_category'], 'quiet') },
      }),
    );
    expect(other.limitHeaders['X-Api-Call-Limit']).toBe('1/40');
  });
});

describe('oauth-endpoints', () => {
  it('passes a request for a documented response on, with no caller made up for it', async () => {
    const phase = await metered({
      url: '/api/v2/oauth/token',
      method: 'POST',
      headers: { prefer: 'code=400' },
    });
    expect(await oauthEndpoints(authority).run(phase)).toBeUndefined();
    expect(phase.caller.ok).toBe(false);
  });
  it('answers OAuth requests itself, and refuses a Host that is not loopback or public', async () => {
    const reply = await oauthEndpoints(authority).run(
      await metered({
        url: '/api/v2/oauth/authorize?response_type=code&client_id=nobody&redirect_uri=http://127.0.0.1:1/callback',
      }),
    );
    expect(reply?.status).toBeGreaterThanOrEqual(300);
    const rebound = await oauthEndpoints(authority).run(
      await metered({ url: '/api/v2/oauth/token', method: 'POST', headers: { host: 'evil.example' } }),
    );
    expect(rebound?.status).toBe(403);
  });
});

describe('https-only', () => {
  it('refuses a request that came over plain HTTP with the given status and passes others', () => {
    const arrival = (proto: string): Arrival =>
      fakeArrival('admin', admin, { url: '/', headers: { 'x-forwarded-proto': proto } });
    expect(httpsOnly(403).run(arrival('http'))).toMatchObject({ status: 403 });
    expect(httpsOnly(421).run(arrival('HTTP'))).toMatchObject({ status: 421 });
    expect(httpsOnly(403).run(arrival('https'))).toBeUndefined();
  });
});

describe('require-credentials', () => {
  it('answers 401 with the reason identify-caller found', async () => {
    const reply = await requireCredentials.run(
      await identified('admin', {
        url: '/api/v2/admin/categories',
        headers: { authorization: 'Bearer nope' },
      }),
    );
    expect(reply && 'status' in reply ? errorOf(reply)?.message : reply).toBe('The access token is invalid.');
  });
  it('passes an accepted caller on as its principal', async () => {
    const phase = await passedOn(
      requireCredentials,
      await identified('collection', { url: '/api/shops', headers: { authorization: partner } }),
    );
    expect(phase.principal.clientId).toBe('demo-partner');
  });
});

describe('known-operation', () => {
  it('answers 404 for a path or method the API lacks, and passes the route on otherwise', async () => {
    const arrival = (url: string, method = 'GET') => fakeArrival('admin', admin, { url, method });
    expect(knownOperation.run(arrival('/api/v2/admin/nothing'))).toMatchObject({ status: 404 });
    expect(knownOperation.run(arrival('/api/v2/admin/categories/1', 'PATCH'))).toMatchObject({ status: 404 });
    const routed = await passedOn(knownOperation, arrival('/api/v2/admin/categories/1'));
    expect(routed.route.operation.operationId).toBe('getCategory');
  });
});

describe('scope', () => {
  it('answers 403 naming the scope the token lacks', async () => {
    const phase = await authorizedAdmin({
      url: '/api/v2/admin/products',
      headers: { authorization: await bearer(['mall.read_category']) },
    });
    const reply = await scope(adminScopes).run(phase);
    expect(reply?.status).toBe(403);
    expect(errorOf(reply)?.more_info).toEqual({ required_scope: 'mall.read_product' });
  });
  it('passes a token that holds the scope', async () => {
    const phase = await authorizedAdmin({
      url: '/api/v2/admin/products',
      headers: { authorization: await bearer(['mall.read_product']) },
    });
    expect(scope(adminScopes).run(phase)).toBeUndefined();
  });
  it('grants a scope a token lists under the alias the spec declares', async () => {
    const phase = await authorizedAdmin({
      url: '/api/v2/admin/products',
      headers: { authorization: await bearer(['mall.read_category']) },
    });
    expect(scope(new Map([['mall.read_product', 'mall.read_category']])).run(phase)).toBeUndefined();
  });
  it('answers the collection API’s missing scope with 401', async () => {
    const phase = await identified('collection', {
      url: '/api/products?collection_product_category=C1',
      headers: { authorization: basic('shops-only-partner', 'shops-only-secret') },
    });
    const routed = await passedOn(knownOperation, await passedOn(requireCredentials, phase));
    expect(scope(new Map()).run(routed)).toMatchObject({ status: 401 });
  });
});

describe('read-body', () => {
  const write = (body: string | readonly string[], contentType = 'application/json') => ({
    url: '/api/v2/admin/categories',
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  const routed = (request: FakeRequest) => passedOn(knownOperation, fakeArrival('admin', admin, request));
  it('passes a JSON body on', async () => {
    const phase = await passedOn(readBody(), await routed(write('{"shop_no":1}')));
    expect(phase.body).toEqual({ shop_no: 1 });
  });
  it('answers 400 for a body that is not JSON or not declared as JSON', async () => {
    expect((await readBody().run(await routed(write('{oops')))) as Reply).toMatchObject({ status: 400 });
    expect((await readBody().run(await routed(write('{}', 'text/plain')))) as Reply).toMatchObject({
      status: 400,
    });
  });
  it('answers 413 for a declared Content-Length over the limit without reading the body', async () => {
    const phase = await routed({
      ...write('{"shop_no":1}'),
      headers: { 'content-type': 'application/json', 'content-length': '17' },
    });
    const reply = (await readBody(16).run(phase)) as Reply;
    expect(reply.status).toBe(413);
    expect(errorOf(reply)?.code).toBe('payload_too_large');
    expect(reply.headers).toMatchObject({ connection: 'close' });
    expect(phase.request.readableFlowing).toBeNull();
  });
  it('stops reading a chunked body as soon as it passes the limit', async () => {
    const phase = await routed(write(['{"a":"', 'x'.repeat(10), 'y'.repeat(10), 'z'.repeat(10), '"}']));
    expect(((await readBody(20).run(phase)) as Reply).status).toBe(413);
    expect(phase.request.readableEnded).toBe(false);
  });
  it('reads a body exactly at the limit', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(20) });
    const phase = await passedOn(readBody(body.length), await routed(write(body)));
    expect(phase.body).toEqual({ name: 'x'.repeat(20) });
  });
  it('ignores Content-Type on an operation without a body', async () => {
    const phase = await routed({
      url: '/api/v2/admin/categories',
      headers: { 'content-type': 'application/json' },
    });
    expect(await readBody().run(phase)).toBeUndefined();
  });
});

describe('api-version', () => {
  const versions = declaredApiVersionsOf(admin.document);
  const header = versions?.header ?? '';
  const stage = apiVersion({ dates: [], unknownAnsweredAs: 'latest', ...versions, header });
  const chosen = (value?: string) =>
    passedOn(
      stage,
      fakeArrival('admin', admin, {
        url: '/api/v2/admin/categories',
        headers: value === undefined ? {} : { [header.toLowerCase()]: value },
      }),
    );
  it('passes on the version that answers, and leaves the request as it was sent', async () => {
    const [latest, oldest = ''] = [versions?.dates[0], versions?.dates.at(-1)];
    expect(header).not.toBe('');
    expect((await chosen()).apiVersion).toBe(latest);
    expect((await chosen(oldest)).apiVersion).toBe(oldest);
    // A release date the spec does not describe is answered as the oldest described.
    const fallback = await chosen('2019-01-01');
    expect(fallback.apiVersion).toBe(oldest);
    expect(fallback.request.headers[header.toLowerCase()]).toBe('2019-01-01');
  });
});

describe('validate-request', () => {
  const runtime = () =>
    createOperationRuntime(admin, noEngine, {
      specDigest: admin.digest,
      operations: new Proxy({}, { get: () => ({}) }),
    });
  const routed = (request: FakeRequest) => passedOn(knownOperation, fakeArrival('admin', admin, request));
  const validate = async (request: FakeRequest) => validateRequest(runtime()).run(await routed(request));
  const validated = async (request: FakeRequest) =>
    passedOn(validateRequest(runtime()), await routed(request));
  it('passes the converted parameters on for the answer', async () => {
    const phase = await validated({ url: '/api/v2/admin/products?limit=5&product_no=1,2&display=T' });
    expect(phase.parameters.query).toMatchObject({ limit: 5, product_no: [1, 2], display: 'T' });
  });
  it('answers 422 naming every violated parameter', async () => {
    const reply = (await validate({ url: '/api/v2/admin/products?limit=101&display=X' })) as Reply;
    expect(reply.status).toBe(422);
    expect(errorOf(reply)?.message).toMatch(/limit/);
    expect(errorOf(reply)?.message).toMatch(/display/);
  });
  it('skips the checks when the caller asks for a documented error', async () => {
    const phase = await validated({
      url: '/api/v2/admin/products?limit=101',
      headers: { prefer: 'code=404' },
    });
    expect(phase.parameters.query).toMatchObject({ limit: 101 });
  });
  it('keeps the checks of a body-less request: the same frozen parameters for the same URL again', async () => {
    const stage = validateRequest(runtime());
    const url = '/api/v2/admin/products?limit=5&product_no=1,2';
    const first = await passedOn(stage, await routed({ url }));
    const again = await passedOn(stage, await routed({ url }));
    expect(again.parameters).toBe(first.parameters);
    expect(Object.isFrozen(first.parameters.query.product_no)).toBe(true);
    const other = await passedOn(stage, await routed({ url: '/api/v2/admin/products?limit=6' }));
    expect(other.parameters.query).toEqual({ limit: 6 });
  });
  it('keeps nothing for a URL past the kept length, and still checks it', async () => {
    const stage = validateRequest(runtime());
    // A query parameter no operation declares is ignored, as the service does: it only lengthens the URL.
    const url = `/api/v2/admin/products?limit=5&padding=${'a'.repeat(2_100)}`;
    const first = await passedOn(stage, await routed({ url }));
    const again = await passedOn(stage, await routed({ url }));
    expect(again.parameters).not.toBe(first.parameters);
    expect(Object.isFrozen(first.parameters.query)).toBe(false);
    expect(first.parameters.query).toEqual({ limit: 5 });
    const refused = (await stage.run(await routed({ url: url.replace('limit=5', 'limit=101') }))) as Reply;
    expect(refused.status).toBe(422);
  });
  it('still checks every URL once more of them were asked than it keeps', async () => {
    const stage = validateRequest(runtime());
    for (let limit = 1; limit <= 100; limit++)
      for (const display of ['T', 'F', 'X'])
        expect(
          await stage.run(await routed({ url: `/api/v2/admin/products?limit=${limit}&display=${display}` })),
        ).toHaveProperty(display === 'X' ? 'status' : 'parameters');
    const first = await passedOn(stage, await routed({ url: '/api/v2/admin/products?limit=1&display=T' }));
    expect(first.parameters.query).toEqual({ limit: 1, display: 'T' });
  });
  it('applies the mode after the kept checks: the same URL is refused, then passed as a documented error', async () => {
    const stage = validateRequest(runtime());
    const url = '/api/v2/admin/products?limit=101';
    expect(((await stage.run(await routed({ url }))) as Reply).status).toBe(422);
    const documented = await passedOn(stage, await routed({ url, headers: { prefer: 'code=404' } }));
    expect(documented.parameters.query).toMatchObject({ limit: 101 });
    expect(((await stage.run(await routed({ url }))) as Reply).status).toBe(422);
  });
  it('tells body-less requests to one URL apart by their header parameters', async () => {
    const stage = validateRequest(runtime());
    const url = '/api/v2/admin/categories/count';
    const version = (value: string) => routed({ url, headers: { 'x-platform-api-version': value } });
    expect(await stage.run(await version('2020-09-01'))).not.toHaveProperty('status');
    const refused = (await stage.run(await version('1999-02-30'))) as Reply;
    expect(refused.status).toBe(422);
    expect(errorOf(refused)?.message).toMatch(/X-Platform-Api-Version/);
  });
  it('accepts a path id repeated in the query when it agrees, and names it when it does not', async () => {
    expect(await validate({ url: '/api/v2/admin/categories/28?category_no=28' })).not.toHaveProperty(
      'status',
    );
    const differing = (await validate({ url: '/api/v2/admin/categories/28?category_no=29' })) as Reply;
    expect(differing.status).toBe(422);
    expect(errorOf(differing)?.message).toMatch(/^category_no /);
  });
  it('applies the body rules of the runtime’s spec', async () => {
    const reply = (await validateRequest(
      createOperationRuntime(
        admin,
        noEngine,
        { specDigest: admin.digest, operations: new Proxy({}, { get: () => ({}) }) },
        () => (body) =>
          body === undefined
            ? []
            : [{ location: 'body', name: 'request.anything', message: 'is refused here' }],
      ),
    ).run(
      await passedOn(
        readBody(),
        await routed({
          url: '/api/v2/admin/categories',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"shop_no":1,"request":{"category_name":"A"}}',
        }),
      ),
    )) as Reply;
    expect(errorOf(reply)?.message).toMatch(/request\.anything/);
  });
});

describe('answer', () => {
  const calls: SandboxCall[] = [];
  const sandbox: SandboxGateway = {
    handles: (_api, operationId) => operationId === 'getCategory',
    handle: async (call) => {
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
  const validated = async (request: FakeRequest) => {
    const routed = await passedOn(knownOperation, await metered(request));
    return passedOn(validateRequest(runtime), routed);
  };

  it('hands the sandbox the converted parameters and the caller’s mall, and maps a refusal to the envelope', async () => {
    const reply = await stage.run(
      await validated({
        url: '/api/v2/admin/categories/7?shop_no=2',
        headers: { authorization: await bearer(['mall.read_category'], 'answermall') },
      }),
    );
    expect(reply.status).toBe(404);
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
    expect((await stage.run(await validated({ url: '/api/v2/admin/categories' }))).prepared?.payload).toBe(
      '{"from":"example"}',
    );
    const asked = await validated({ url: '/api/v2/admin/categories/7', headers: { prefer: 'code=200' } });
    expect((await stage.run(asked)).prepared).toBe(prepared);
    expect(calls.length).toBe(before);
  });
});

describe('faults', () => {
  /** A routed admin request whose mall's mark in use settles when `settle` is called. */
  const marking = async (method: string) => {
    let settle: (listed: boolean) => void = () => {};
    const listed = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    const routed = await passedOn(knownOperation, {
      ...(await metered({
        method,
        url: '/api/v2/admin/categories',
        headers: { authorization: await bearer(['mall.write_category'], 'faultsmall') },
      })),
      listed,
    });
    return { routed, settle };
  };
  const touched: string[] = [];
  const stage = faults(createFaultRules(), async (mallId) => void touched.push(mallId), {
    maxDelayMs: 1_000,
  });

  it('passes a read on before its mall’s mark settles, the mark (and the touch of an unlisted mall) under way', async () => {
    const { routed, settle } = await marking('GET');
    const passed = await passedOn(stage, routed);
    expect(passed.marked).toBeInstanceOf(Promise);
    expect(touched).toEqual([]);
    settle(false);
    await passed.marked;
    expect(touched).toEqual(['faultsmall']);
  });

  it('holds a write until its mall’s mark has settled, touching an unlisted mall first', async () => {
    touched.length = 0;
    const { routed, settle } = await marking('POST');
    let passed = false;
    const passing = passedOn(stage, routed).then((phase) => {
      passed = true;
      return phase;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed).toBe(false);
    settle(false);
    expect((await passing).marked).toBeUndefined();
    expect(touched).toEqual(['faultsmall']);
  });
});
