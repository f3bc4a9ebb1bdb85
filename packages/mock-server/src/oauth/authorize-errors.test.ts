// The admin spec and the mock authorization server agree on how authorize fails and what a token
// lists: errors the app can be told about are 302s to its redirect URI with `error` and `state`
// (RFC 6749 4.1.2.1) as the spec's Location examples show; a 400 only where no redirect is safe,
// with an error the spec's 400 examples name; and every issued token fits the spec's AccessToken.
import { type JsonObject, loadSpec, type SpecModel } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMockServer } from '../server/mock-server.js';
import { demoOAuthApp, demoOAuthClient } from './demo-credentials.js';
import { issueDemoTokens } from './demo-tokens.js';
import { createOAuthAuthority } from './oauth-authority.js';
import { lifetimesFromSpec } from './oauth-settings.js';
import { platformOAuthSettings } from './platform-oauth.js';
import { grantsScope, scopeAliasesFromSpec } from './scope-names.js';

const oauth = await platformOAuthSettings();

const redirectUri = 'http://127.0.0.1:8765/callback';
const authority = createOAuthAuthority({ apps: [demoOAuthApp(oauth)], settings: oauth });
let admin: RunningMock;
let spec: SpecModel;

beforeAll(async () => {
  spec = await loadSpec('admin');
  admin = await startMockServer({ api: 'admin', port: 0, authority, log: () => {} });
});
afterAll(() => admin.close());

const authorize = (query: Record<string, string>) => {
  const url = new URL('/api/v2/oauth/authorize', admin.url);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: demoOAuthClient.clientId,
    redirect_uri: redirectUri,
    scope: 'mall.read_category',
    state: 'st-42',
    ...query,
  }).toString();
  return fetch(url, { redirect: 'manual' });
};

const authorizeOperation = () => {
  const operation = spec.operation('authorizeApp');
  if (!operation) throw new Error('the admin spec has no authorizeApp');
  return spec.dereference(operation.definition) as JsonObject;
};

/** The `error` of each Location example of the spec's 302 answer. */
const specRedirectErrors = (): string[] => {
  const location = (authorizeOperation().responses as JsonObject)['302'] as JsonObject;
  const examples = ((location.headers as JsonObject).Location as JsonObject).examples as JsonObject;
  return Object.values(examples).flatMap((example) => {
    const error = new URL(String((example as JsonObject).value)).searchParams.get('error');
    return error === null ? [] : [error];
  });
};

describe('authorize errors', () => {
  it.each([
    ['an unknown scope', { scope: 'mall.read_everything' }, 'invalid_scope'],
    ['a response_type other than code', { response_type: 'token' }, 'unsupported_response_type'],
  ])('sends %s back to the app: 302 with error and the unchanged state', async (_, query, error) => {
    const response = await authorize(query);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error, state: 'st-42' });
    expect(location.searchParams.get('code')).toBeNull();
    expect(specRedirectErrors()).toContain(error);
  });

  it.each([
    ['an unknown client_id', { client_id: 'nobody' }],
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/callback' }],
  ])('answers %s with 400 and no redirect, as the spec documents', async (_, query) => {
    const response = await authorize(query);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    const body = (await response.json()) as { error: string };
    const documented = (authorizeOperation().responses as JsonObject)['400'] as JsonObject;
    const examples = ((documented.content as JsonObject)['application/json'] as JsonObject)
      .examples as JsonObject;
    expect(
      Object.values(examples).map((example) => ((example as JsonObject).value as JsonObject).error),
    ).toContain(body.error);
  });

  it('documents no other error status than 400 (and the shared 403 for plain HTTP, 429 and 5xx)', () => {
    const statuses = Object.keys(authorizeOperation().responses as JsonObject).filter((s) =>
      s.startsWith('4'),
    );
    expect(statuses.sort()).toEqual(['400', '403', '429']);
  });
});

describe('issued tokens', () => {
  it('fit the spec’s AccessToken schema, the mall.analytics alias included', async () => {
    const tokens = await issueDemoTokens(authority, oauth.scopes);
    expect(tokens.scopes).toContain('mall.analytics');
    const validate = spec.schemas().compile({ $ref: '#/components/schemas/AccessToken' });
    expect(validate(tokens), JSON.stringify(validate.errors)).toBe(true);
  });

  it('list scopes under the aliases the specs declare, and the alias grants the scope', async () => {
    const analytics = await loadSpec('analytics');
    const aliases = scopeAliasesFromSpec(spec.document, analytics.document);
    expect([...aliases]).toEqual([['mall.read_analytics', 'mall.analytics']]);
    expect(grantsScope(['mall.analytics'], 'mall.read_analytics', aliases)).toBe(true);
    expect(grantsScope(['mall.read_product'], 'mall.read_analytics', aliases)).toBe(false);
  });

  it('follow an alias changed in a copy of the spec', async () => {
    const analytics = structuredClone(spec.document);
    const schemes = (analytics.components as JsonObject).securitySchemes as JsonObject;
    (schemes.oauth2 as JsonObject)['x-scope-aliases'] = { 'mall.read_product': 'mall.product' };
    const aliases = scopeAliasesFromSpec(analytics);
    const renamed = createOAuthAuthority({
      apps: [demoOAuthApp(oauth)],
      settings: { ...oauth, scopeAliases: aliases },
    });
    expect((await issueDemoTokens(renamed, ['mall.read_product'])).scopes).toEqual(['mall.product']);
  });
});

describe('token lifetimes', () => {
  it('come from the admin spec’s x-token-lifetimes, and follow a change in a copy', async () => {
    expect(oauth.lifetimes).toEqual({
      codeMs: 60_000,
      accessTokenMs: 7_200_000,
      refreshTokenMs: 1_209_600_000,
    });
    const copy = structuredClone(spec.document);
    const schemes = (copy.components as JsonObject).securitySchemes as JsonObject;
    ((schemes.oauth2 as JsonObject)['x-token-lifetimes'] as JsonObject)['access-token-seconds'] = 60;
    expect(lifetimesFromSpec(copy)?.accessTokenMs).toBe(60_000);
  });
});
