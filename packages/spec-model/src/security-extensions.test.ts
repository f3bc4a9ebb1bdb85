// The security extensions as the shipped bundles state them, and documents that state none.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from './json-document.js';
import { httpsOnlyStatusOf, scopeAliasesOf, tokenLifetimesOf } from './security-extensions.js';
import { loadSpecSync } from './spec-model.js';

describe('httpsOnlyStatusOf', () => {
  it('reads the status of an HTTPS-only API and nothing for the collection API', () => {
    expect(httpsOnlyStatusOf(loadSpecSync('admin').document)).toBe(403);
    expect(httpsOnlyStatusOf(loadSpecSync('collection').document)).toBeUndefined();
    expect(httpsOnlyStatusOf({ 'x-https-only': { status: '403' } })).toBeUndefined();
  });
});

describe('tokenLifetimesOf', () => {
  it('reads the OAuth scheme’s lifetimes through references', () => {
    const lifetimes = tokenLifetimesOf(loadSpecSync('admin').document);
    expect(lifetimes?.accessTokenSeconds).toBeGreaterThan(0);
    expect(lifetimes?.refreshTokenSeconds).toBeGreaterThan(lifetimes?.accessTokenSeconds ?? 0);
  });

  it('finds nothing where a scheme states only some lifetimes, or no scheme exists', () => {
    const partial = {
      components: {
        securitySchemes: { oauth: { type: 'oauth2', 'x-token-lifetimes': { 'access-token-seconds': 60 } } },
      },
    } as unknown as JsonObject;
    expect(tokenLifetimesOf(partial)).toBeUndefined();
    expect(tokenLifetimesOf(loadSpecSync('collection').document)).toBeUndefined();
  });
});

describe('scopeAliasesOf', () => {
  it('reads the analytics scheme’s alias (seed 5) and none from a spec without aliases', () => {
    expect(scopeAliasesOf(loadSpecSync('analytics').document).get('mall.read_analytics')).toBe(
      'mall.analytics',
    );
    expect(scopeAliasesOf(loadSpecSync('collection').document).size).toBe(0);
  });

  it('skips the extension’s prose keys and values that are not names', () => {
    const document = {
      components: {
        securitySchemes: {
          oauth: {
            type: 'oauth2',
            'x-scope-aliases': { description: 'prose', 'x-provenance': 'seed', 'a.read': 'a.r', 'b.read': 3 },
          },
        },
      },
    } as unknown as JsonObject;
    expect([...scopeAliasesOf(document)]).toEqual([['a.read', 'a.r']]);
  });
});
