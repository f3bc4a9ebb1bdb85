import { describe, expect, it } from 'vitest';
import {
  compareSpecificity,
  createSpecModel,
  dereference,
  type JsonObject,
  loadSpec,
  loadSpecSync,
  loadSpecs,
} from './index.js';

const document: JsonObject = {
  openapi: '3.1.0',
  paths: {
    '/products/{product_no}': {
      parameters: [{ $ref: '#/components/parameters/ProductNo' }],
      get: { operationId: 'getProduct', 'x-required-scope': 'mall.read_product', responses: { '200': {} } },
    },
    '/products/count': { get: { operationId: 'countProducts', responses: { '200': {} } } },
    '/products': {
      post: {
        operationId: 'createProduct',
        requestBody: { $ref: '#/components/requestBodies/Create' },
        responses: { '201': {} },
      },
    },
  },
  components: {
    parameters: {
      ProductNo: { name: 'product_no', in: 'path', required: true, schema: { type: 'integer' } },
    },
    requestBodies: {
      Create: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
      },
    },
    schemas: {
      Node: {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 3 }, child: { $ref: '#/components/schemas/Node' } },
      },
    },
  },
};

describe('spec model', () => {
  const model = createSpecModel(document);

  it('routes a literal segment before a templated one, whatever order the spec lists them in', () => {
    expect(model.route('GET', '/products/count')?.operation.operationId).toBe('countProducts');
    expect(model.route('get', '/products/12')).toMatchObject({
      operation: { operationId: 'getProduct' },
      pathParameters: { product_no: '12' },
    });
    expect(model.route('DELETE', '/products/12')).toBeUndefined();
    expect(model.pathExists('/products/12')).toBe(true);
  });

  it('decodes path parameters and refuses malformed escapes', () => {
    expect(model.route('GET', '/products/a%20b')?.pathParameters).toEqual({ product_no: 'a b' });
    expect(model.route('GET', '/products/%E0%A4%A')).toBeUndefined();
  });

  it('hands out the same frozen route for a method and path asked again, and a miss again as a miss', () => {
    const routes = createSpecModel(document);
    const first = routes.route('GET', '/products/12');
    expect(routes.route('GET', '/products/12')).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first?.pathParameters)).toBe(true);
    expect(routes.route('GET', '/products/13')?.pathParameters).toEqual({ product_no: '13' });
    expect(routes.route('DELETE', '/products/12')).toBeUndefined();
    expect(routes.route('DELETE', '/products/12')).toBeUndefined();
  });

  it('still routes every path once more than it remembers were asked', () => {
    const routes = createSpecModel(document);
    for (let n = 0; n < 2_100; n++)
      expect(routes.route('GET', `/products/${n}`)?.pathParameters).toEqual({ product_no: String(n) });
    expect(routes.route('GET', '/products/count')?.operation.operationId).toBe('countProducts');
  });

  it('orders templates by specificity segment by segment', () => {
    expect(compareSpecificity('/a/count', '/a/{id}')).toBeLessThan(0);
    expect(compareSpecificity('/a/{id}/b', '/a/{id}')).toBeLessThan(0);
    expect(compareSpecificity('/{x}/b', '/a/{y}')).toBeGreaterThan(0);
  });

  it('resolves path-item parameters, request bodies, scopes and extensions', () => {
    const get = model.operation('getProduct');
    expect(get?.parameters.map((p) => [p.name, p.in, p.required])).toEqual([['product_no', 'path', true]]);
    expect(get?.requiredScope).toBe('mall.read_product');
    expect(get?.extensions).toEqual({ 'x-required-scope': 'mall.read_product' });
    const post = model.operation('createProduct');
    expect(post).toMatchObject({ bodyMediaTypes: ['application/json'], bodyRequired: true });
  });

  it('dereferences deeply and keeps a recursive reference as a reference', () => {
    const schema = dereference(document, { $ref: '#/components/schemas/Node' }) as JsonObject;
    expect(schema.properties).toMatchObject({
      name: { maxLength: 3 },
      child: { $ref: '#/components/schemas/Node' },
    });
    expect(() => model.resolve({ $ref: '#/components/schemas/Missing' })).toThrow(/unresolvable/);
    expect(model.resolveOptional({ $ref: '#/components/schemas/Missing' })).toBeUndefined();
  });

  it('compiles schemas holding references into the document', () => {
    const validate = model.schemas().compile({ $ref: '#/components/schemas/Node' });
    expect(validate({ name: 'abc', child: { name: 'x' } })).toBe(true);
    expect(validate({ name: 'abc', child: { name: 'toolong' } })).toBe(false);
  });

  it('compiles an equal schema once, even when it is built anew', () => {
    const compile = (ref: string) => model.schemas().compile({ $ref: ref });
    const node = compile('#/components/schemas/Node');
    expect(compile('#/components/schemas/Node')).toBe(node);
    const name = compile('#/components/schemas/Node/properties/name');
    expect(name).not.toBe(node);
    expect(name('abcd')).toBe(false);
    expect(name('abc')).toBe(true);
  });

  it('reads each bundle once per process, whether asked synchronously or not', async () => {
    const admin = await loadSpec('admin');
    expect(await loadSpec('admin')).toBe(admin);
    expect(loadSpecSync('admin')).toBe(admin);
    expect(loadSpecSync('analytics')).toBe(await loadSpec('analytics'));
  });

  it('loads every bundled API with a stable digest', async () => {
    const admin = await loadSpec('admin');
    expect(admin.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(admin.route('GET', '/api/v2/admin/products/count')?.operation.operationId).toBe('countProducts');
    expect((await loadSpec('collection')).operations.length).toBe(5);
  });

  it('gives every API its given model, and the shipped bundle of each API not given', async () => {
    const changed = createSpecModel(document);
    const specs = await loadSpecs({ admin: changed, analytics: undefined });
    expect(Object.keys(specs)).toEqual(['collection', 'admin', 'analytics']);
    expect(specs.admin).toBe(changed);
    expect(specs.analytics).toBe(await loadSpec('analytics'));
    expect((await loadSpecs()).admin).toBe(await loadSpec('admin'));
  });
});
