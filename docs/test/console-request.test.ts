// The console's request logic at the function: text typed as each schema says, validation with
// the operation's schemas from the console data the build writes (so a rule of the spec is a rule
// of the console), and the request it builds.
import { apiNames, loadSpecSync } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { consoleApiOf } from '../build/console-data.mjs';
import type { ConsoleOperation, ConsoleParameter, Schema } from '../src/browser/console-model.js';
import {
  buildRequest,
  inputProblems,
  isRateLimitHeader,
  typedValue,
} from '../src/browser/console-request.js';

const models = apiNames.map((api) => loadSpecSync(api));
const [collection, admin] = models as [(typeof models)[0], (typeof models)[0]];
const collectionApi = consoleApiOf('collection', 'Collection', collection, models);
const adminApi = consoleApiOf('admin', 'Admin', admin, models);
const operation = (api: typeof collectionApi, id: string) =>
  api.operations.find((entry) => entry.operationId === id) as ConsoleOperation;

/** The fields as the console pre-fills them: required parameters with the spec's example. */
const prefilled = (entry: ConsoleOperation) => ({
  values: Object.fromEntries(entry.parameters.filter((p) => p.required).map((p) => [p.name, p.example])),
  body: entry.body?.example ?? '',
});

describe('typedValue', () => {
  const field = (schema: Schema, explode = false): ConsoleParameter => ({
    name: 'field',
    in: 'query',
    style: 'form',
    explode,
    required: false,
    description: '',
    schema,
    example: '',
  });

  it('reads numbers, booleans and comma lists as their schema says, and leaves bad text for Ajv', () => {
    expect(typedValue(field({ type: 'integer' }), '20')).toBe(20);
    expect(typedValue(field({ type: 'integer' }), 'ten')).toBe('ten');
    expect(typedValue(field({ type: 'boolean' }), 'true')).toBe(true);
    expect(typedValue(field({ type: 'array', items: { type: 'integer' } }), ' 1, 2 ,3 ')).toEqual([1, 2, 3]);
    expect(typedValue(field({ type: 'string' }), '007')).toBe('007');
  });

  it('keeps an exploded list’s one field one item, as its repeated key would carry it', () => {
    expect(typedValue(field({ type: 'array', items: { type: 'string' } }, true), 'a,b')).toEqual(['a,b']);
  });
});

describe('inputProblems', () => {
  it('accepts every operation as pre-filled from the spec’s examples', () => {
    for (const api of [collectionApi, adminApi]) {
      for (const entry of api.operations) {
        expect(inputProblems(entry, prefilled(entry)), entry.operationId).toEqual([]);
      }
    }
  });

  it('names a parameter outside its schema’s bounds, a missing required one, and one not in its enum', () => {
    const shops = operation(collectionApi, 'listShops');
    expect(inputProblems(shops, { values: { limit: '101' }, body: '' })).toEqual([
      { name: 'limit', message: 'must be <= 100' },
    ]);
    expect(inputProblems(shops, { values: { order: 'sideways' }, body: '' })).toEqual([
      { name: 'order', message: 'must be one of asc, desc' },
    ]);
    const products = operation(collectionApi, 'listProducts');
    expect(inputProblems(products, { values: {}, body: '' })).toEqual([
      { name: 'collection_product_category', message: 'is required' },
    ]);
  });

  it('checks the JSON body: text that is not JSON, and fields against the body schema, named as the API names them', () => {
    const create = operation(adminApi, 'createCategory');
    expect(inputProblems(create, { values: {}, body: '{' })[0]?.name).toBe('body');
    const problems = inputProblems(create, { values: {}, body: JSON.stringify({ shop_no: 1, request: {} }) });
    expect(problems).toContainEqual({ name: 'request.category_name', message: 'is required' });
  });
});

describe('buildRequest', () => {
  it('fills the path, sends comma lists readable, and sets the credentials and JSON body', () => {
    const get = operation(adminApi, 'getCategory');
    const { url, init } = buildRequest(
      get,
      { values: { category_no: '27', shop_no: '1', fields: 'category_name,category_depth' }, body: '' },
      'http://127.0.0.1:4011/',
      'Bearer abc',
    );
    expect(url).toBe(
      'http://127.0.0.1:4011/api/v2/admin/categories/27?shop_no=1&fields=category_name,category_depth',
    );
    expect(init.method).toBe('GET');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer abc');
    const create = operation(adminApi, 'createCategory');
    const posted = buildRequest(create, prefilled(create), 'http://127.0.0.1:4011', undefined);
    expect(posted.init.method).toBe('POST');
    expect(new Headers(posted.init.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(String(posted.init.body))).toEqual(JSON.parse(create.body?.example ?? ''));
  });

  it('marks the rate-limit headers and Retry-After', () => {
    expect(['x-api-call-limit', 'x-ratelimit-remaining', 'retry-after'].every(isRateLimitHeader)).toBe(true);
    expect(isRateLimitHeader('content-type')).toBe(false);
  });
});

describe('the console data', () => {
  it('takes Basic credentials for the collection API and the admin mock as the OAuth server of the others', () => {
    expect(collectionApi.auth.kind).toBe('basic');
    const analytics = consoleApiOf('analytics', 'Analytics', models[2] as (typeof models)[0], models);
    for (const api of [adminApi, analytics]) {
      expect(api.auth.kind === 'bearer' && api.auth.oauth.serverUrl).toBe('http://127.0.0.1:4011');
    }
    expect(adminApi.operations.some((entry) => entry.path.includes('/oauth/'))).toBe(false);
  });
});
