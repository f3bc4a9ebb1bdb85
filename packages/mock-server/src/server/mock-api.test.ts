// The assembled front layer over real HTTP: the stage order mock-api.ts declares, every way in
// included (health and control are branches of the one list, answered outside the API's journal and
// log); a failure inside a stage answered with a bare 500 envelope while its cause goes to the log,
// and a store outage with a 503, both journalled at the request's mall; and — for every operation
// of the three APIs — path ids repeated in the query or body accepted when they agree.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StoreUnavailableError } from '@mall-api/mall-state';
import {
  apiNames,
  type Json,
  type JsonObject,
  loadSpec,
  type OperationEntry,
  type SpecModel,
} from '@mall-api/spec-model';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockMalls } from '../malls/mock-malls.js';
import { demoOAuthApp } from '../oauth/demo-credentials.js';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { createOAuthAuthority } from '../oauth/oauth-authority.js';
import { platformOAuthSettings } from '../oauth/platform-oauth.js';
import { createHealth } from '../stages/health.js';
import { createMockApi, type MockApi } from './mock-api.js';

const oauth = await platformOAuthSettings();

const authority = createOAuthAuthority({ apps: [demoOAuthApp(oauth)], settings: oauth });
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))));

async function serve(mock: MockApi): Promise<string> {
  const server = createServer((request, response) => void mock.handle(request, response));
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the front layer', () => {
  it('runs the stages in the order its header states', async () => {
    const admin = await createMockApi('admin', { authority });
    expect(admin.stages).toEqual([
      'metrics',
      'control',
      'cors-preflight',
      'identify-caller',
      'mall-in-use',
      'mall-clock',
      'rate-limit',
      'https-only',
      'oauth-endpoints',
      'require-credentials',
      'known-operation',
      'scope',
      'read-body',
      'api-version',
      'validate-request',
      'faults',
      'answer',
    ]);
    expect((await createMockApi('collection')).stages).not.toContain('https-only');
  });

  it('answers the health endpoints as the first branch of its list, outside the journal and the log', async () => {
    const health = createHealth();
    health.markReady();
    const malls = await createMockMalls();
    const logged: string[] = [];
    const mock = await createMockApi('admin', { authority, health, malls, log: (line) => logged.push(line) });
    expect(mock.stages.slice(0, 4)).toEqual(['health', 'metrics', 'control', 'cors-preflight']);
    const base = await serve(mock);
    const ready = await fetch(`${base}/__ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ready' });
    expect((await fetch(`${base}/__mock/malls/demomall/journal`)).status).toBe(200);
    expect(await malls.journal.entries('demomall', {})).toEqual([]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/GET \/__mock\/malls\/demomall\/journal 200/);
  });

  it('answers a documented response of the OAuth endpoints from the spec, with no access token', async () => {
    const base = await serve(await createMockApi('admin', { authority }));
    const documented = await fetch(`${base}/api/v2/oauth/token`, {
      method: 'POST',
      headers: { prefer: 'code=400', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code',
    });
    expect(documented.status).toBe(400);
    const asked = await fetch(`${base}/api/v2/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code',
    });
    expect(asked.status).toBe(401);
    expect(await asked.json()).toMatchObject({ error: 'invalid_client' });
    const elsewhere = await fetch(`${base}/api/v2/admin/categories`, { headers: { prefer: 'code=200' } });
    expect(elsewhere.status).toBe(401);
  });

  /** Lists categories at `mall` on an admin mock whose sandbox throws `error`: the answer, the journal and the log. */
  async function failingCall(error: Error, mall: string) {
    const logged: string[] = [];
    const malls = await createMockMalls();
    const mock = await createMockApi('admin', {
      authority,
      malls,
      logError: (line) => logged.push(line),
      sandbox: {
        handles: () => true,
        handle: () => {
          throw error;
        },
      },
    });
    const token = (await issueDemoTokens(authority, ['mall.read_category'], mall)).access_token;
    const response = await fetch(`${await serve(mock)}/api/v2/admin/categories`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { response, token, logged, journal: await malls.journal.entries(mall, {}) };
  }

  it('logs the cause of a 500, answers only the envelope and journals it', async () => {
    const { response, token, logged, journal } = await failingCall(
      new TypeError('store went away'),
      'failmall',
    );
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'internal_error', message: 'An internal error occurred (TypeError).', more_info: {} },
    });
    expect(text).not.toMatch(/store went away|at .*\.js/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/admin 500 on GET \/api\/v2\/admin\/categories: TypeError: store went away/);
    expect(logged[0]).not.toContain(token);
    expect(journal).toMatchObject([{ operationId: 'listCategories', status: 500, answeredBy: 'answer' }]);
  });

  it('answers a store outage with a 503 envelope, logs no cause and journals it', async () => {
    const outage = await failingCall(new StoreUnavailableError('the store does not answer'), 'outagemall');
    expect(outage.response.status).toBe(503);
    expect((await outage.response.json()).error.message).not.toMatch(/does not answer/);
    expect(outage.logged).toEqual([]);
    expect(outage.journal).toMatchObject([
      { operationId: 'listCategories', status: 503, answeredBy: 'answer' },
    ]);
  });
});

/** The documented example of an operation's required query parameters and JSON body. */
function documentedRequest(spec: SpecModel, operation: OperationEntry) {
  const exampleOf = (node: JsonObject) => {
    const examples = spec.resolveOptional(node.examples);
    const first = examples ? spec.resolveOptional(Object.values(examples)[0]) : undefined;
    return node.example ?? first?.value;
  };
  const query = Object.fromEntries(
    operation.parameters
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => [
        p.name,
        String(exampleOf(p.definition) ?? p.schema.example ?? (p.schema.enum as Json[])?.[0]),
      ]),
  );
  return { query, body: operation.jsonBody ? exampleOf(operation.jsonBody) : undefined };
}

describe('path ids repeated by generated clients, on every operation', async () => {
  const basic = `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`;
  const scopes = [...oauth.scopes];
  for (const api of apiNames) {
    const spec = await loadSpec(api);
    const withPathIds = spec.operations.filter((op) => op.parameters.some((p) => p.in === 'path'));
    for (const operation of withPathIds) {
      const documented = documentedRequest(spec, operation);
      it(`${api} ${operation.operationId}: an agreeing copy passes, a differing one is a 422 naming it`, async () => {
        const base = await serve(await createMockApi(api, { authority }));
        const names = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
        const path = operation.pathTemplate.replace(/\{([^}]+)\}/g, '1');
        const inBody = operation.bodyMediaTypes.includes('application/json');
        const call = async (value: string) => {
          const token = (
            await issueDemoTokens(authority, scopes, `ids${Math.random().toString(36).slice(2, 8)}`)
          ).access_token;
          const headers = {
            authorization: api === 'collection' ? basic : `Bearer ${token}`,
            'content-type': 'application/json',
            prefer: 'code=200',
          };
          const repeated = Object.fromEntries(names.map((name) => [name, value]));
          const body = documented.body as { request?: object } | undefined;
          return inBody
            ? fetch(`${base}${path}?${new URLSearchParams(documented.query)}`, {
                method: operation.method.toUpperCase(),
                headers,
                body: JSON.stringify({ ...body, request: { ...body?.request, ...repeated } }),
              })
            : fetch(`${base}${path}?${new URLSearchParams({ ...documented.query, ...repeated })}`, {
                method: operation.method.toUpperCase(),
                headers,
              });
        };
        const agreeing = await call('1');
        expect(agreeing.status, await agreeing.clone().text()).not.toBe(422);
        const differing = await call('2');
        expect(differing.status).toBe(422);
        const { error } = (await differing.json()) as {
          error: { more_info: { violations: { name: string }[] } };
        };
        expect(error.more_info.violations.map((v) => v.name)).toContain(
          inBody ? `request.${names[0]}` : names[0],
        );
      });
    }
  }
});
