// One compiled API per spec: everything the mock enforces is derived from the spec it is given, so
// a server started on changed copies follows every change — the rate limit, HTTPS-only, the date
// versions, a scope alias (in the tokens the authority issues and in the scope check) and a body
// rule's limit — while the shipped bundles stay as they are.
import { createSpecModel, type JsonObject, loadSpec } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { type RunningMock, startMockServers } from '../server/mock-server.js';
import { compileApi } from './compiled-api.js';

const shippedAdmin = await loadSpec('admin');
const shippedAnalytics = await loadSpec('analytics');

/** The admin spec with a smaller bucket, no HTTPS rule, no date versions and a shorter tag text. */
function changedAdmin(): JsonObject {
  const {
    'x-https-only': _https,
    'x-api-versions': _versions,
    ...document
  } = structuredClone(shippedAdmin.document);
  const text = JSON.stringify({
    ...document,
    'x-rate-limit': { ...(document['x-rate-limit'] as JsonObject), capacity: 3, 'drain-per-second': 0.01 },
  });
  // Every x-joined-max-length of 200 (the product tags) becomes 10.
  const shortened = text.replaceAll('"maximum":200,"separator":","', '"maximum":10,"separator":","');
  expect(shortened).not.toBe(text);
  return JSON.parse(shortened) as JsonObject;
}

/** The analytics spec listing `mall.read_analytics` as `mall.stats` in issued tokens. */
function changedAnalytics(): JsonObject {
  const document = structuredClone(shippedAnalytics.document);
  const schemes = (document.components as JsonObject).securitySchemes as JsonObject;
  (schemes.oauth2 as JsonObject)['x-scope-aliases'] = { 'mall.read_analytics': 'mall.stats' };
  return document;
}

describe('compileApi', () => {
  it('derives the rules from the spec it is given, not from the shipped bundle', async () => {
    const shipped = await compileApi('admin', shippedAdmin);
    const changed = await compileApi('admin', createSpecModel(changedAdmin()));
    expect([shipped.httpsOnly, changed.httpsOnly]).toEqual([403, undefined]);
    expect(shipped.versions?.header).toBe('X-Platform-Api-Version');
    expect(changed.versions).toBeUndefined();
    expect(changed.limit.policy).not.toEqual(shipped.limit.policy);
    const tags = { shop_no: 1, request: { product_name: 'p', product_tag: ['abcdef', 'ghijkl'] } };
    expect(shipped.bodyRules('createProduct')(tags)).toEqual([]);
    expect(
      changed
        .bodyRules('createProduct')(tags)
        .map((v) => v.name),
    ).toEqual(['request.product_tag']);
    const analytics = await compileApi('analytics', createSpecModel(changedAnalytics()));
    expect([...analytics.oauth.scopeAliases]).toEqual([['mall.read_analytics', 'mall.stats']]);
  });
});

describe('a mock server serving changed copies of the specs', () => {
  let served: Awaited<ReturnType<typeof startMockServers>>;
  const urlOf = (api: string) => (served.mocks.find((mock) => mock.api === api) as RunningMock).url;
  let mall = 0;
  const token = (scopes: string[]) => issueDemoTokens(served.authority, scopes, `changed${++mall}`);

  beforeAll(async () => {
    served = await startMockServers({
      apis: ['admin', 'analytics'],
      ports: { admin: 0, analytics: 0 },
      specs: { admin: createSpecModel(changedAdmin()), analytics: createSpecModel(changedAnalytics()) },
    });
  });
  afterAll(() => served?.close());

  it('counts against the changed limit and lets plain HTTP through', async () => {
    const { access_token } = await token(['mall.read_category']);
    const statuses: number[] = [];
    let reported = '';
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${urlOf('admin')}/api/v2/admin/categories`, {
        headers: { authorization: `Bearer ${access_token}`, 'x-forwarded-proto': 'http' },
      });
      statuses.push(response.status);
      if (i === 0) reported = response.headers.get('x-api-call-limit') ?? '';
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(reported).toBe('1/3');
  });

  it('checks the version header by its schema alone once the spec describes no versions', async () => {
    const asked = async (version: string) =>
      fetch(`${urlOf('admin')}/api/v2/admin/categories`, {
        headers: {
          authorization: `Bearer ${(await token(['mall.read_category'])).access_token}`,
          'x-platform-api-version': version,
        },
      });
    expect((await asked('2019-06-01')).status).toBe(200);
    const malformed = await asked('latest');
    expect(malformed.status).toBe(422);
    const body = (await malformed.json()) as { error: { more_info: { violations: { name: string }[] } } };
    expect(body.error.more_info.violations.map((v) => v.name)).toEqual(['X-Platform-Api-Version']);
  });

  it('issues and accepts the scope under the changed alias', async () => {
    const issued = await token(['mall.read_analytics']);
    expect(issued.scopes).toEqual(['mall.stats']);
    const response = await fetch(
      `${urlOf('analytics')}/visitors/view?mall_id=demomall&start_date=2026-10-01&end_date=2026-10-31`,
      { headers: { authorization: `Bearer ${issued.access_token}` } },
    );
    expect(response.status).toBe(200);
  });

  it('refuses a body by the changed rule limit', async () => {
    const response = await fetch(`${urlOf('admin')}/api/v2/admin/products`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${(await token(['mall.write_product'])).access_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        shop_no: 1,
        request: { product_name: 'Tagged', product_tag: ['abcdef', 'ghijkl'] },
      }),
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { more_info: { violations: { name: string }[] } } };
    expect(body.error.more_info.violations.map((v) => v.name)).toContain('request.product_tag');
  });
});
