// The hooks keep a base URL's path: against one mall of our mock (`…/__mall/<id>`), the path Dredd
// requests is the rewritten URI under that mall, as Dredd's own paths are.
import { bundledSpecPath } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { type DreddTransaction, setUri } from './dredd-transaction.js';
import { createTransactionHooks } from './transaction-hooks.js';

const transaction = (statusCode: string, uri: string): DreddTransaction => ({
  origin: { resourceName: '/api/shops' },
  request: { method: 'GET', uri, headers: {} },
  expected: { statusCode },
});

describe('the full path of a rewritten transaction', () => {
  it('is the URI under the base path, without a doubled slash', () => {
    const t = transaction('200', '/api/shops');
    setUri(t, '/__mall/m1/', '/api/shops', new URLSearchParams('limit=10&fields=a,b'));
    expect(t.request.uri).toBe('/api/shops?limit=10&fields=a,b');
    expect(t.fullPath).toBe('/__mall/m1/api/shops?limit=10&fields=a,b');
  });

  it.each([
    ['200', '/__mall/m1/api/shops?limit=10'],
    ['404', '/__mall/m1/__no_such_resource__/api/shops?limit=10'],
  ])('keeps the mall of a per-mall base URL (%s)', async (status, fullPath) => {
    const hooks = await createTransactionHooks({
      api: 'collection',
      specFile: bundledSpecPath('collection'),
      baseUrl: 'http://127.0.0.1:9/__mall/m1',
      targetIsMock: true,
      sandbox: false,
      authorizations: ['Basic eDp5'],
      forbiddenAuthorizations: [],
    });
    const t = transaction(status, '/api/shops?limit=10');
    await hooks.beforeEach(t);
    expect(t.fail).toBeUndefined();
    expect(t.fullPath).toBe(fullPath);
  });
});
