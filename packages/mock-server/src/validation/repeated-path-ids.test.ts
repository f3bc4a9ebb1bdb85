// The rule for path ids a client repeats in the query or the body: dropped when they agree with
// the path (as text or as numbers), a violation naming the field when they do not.
import { createSpecModel, type OperationEntry } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { reconcileRepeatedPathIds } from './repeated-path-ids.js';

const spec = createSpecModel({
  openapi: '3.1.0',
  paths: {
    '/categories/{category_no}': {
      parameters: [{ name: 'category_no', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { operationId: 'getCategory', responses: {} },
      put: { operationId: 'updateCategory', responses: {} },
    },
    '/shops/{shop_no}/items': {
      get: {
        operationId: 'listItems',
        parameters: [
          { name: 'shop_no', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'shop_no', in: 'query', schema: { type: 'integer' } },
        ],
        responses: {},
      },
    },
  },
});
const operation = (id: string) => spec.operation(id) as OperationEntry;

describe('path ids repeated by clients', () => {
  it('drops a query copy that agrees, numerically or as text', () => {
    for (const repeated of ['100', '0100']) {
      const outcome = reconcileRepeatedPathIds(
        operation('getCategory'),
        { category_no: '100' },
        new URLSearchParams({ category_no: repeated, shop_no: '1' }),
        undefined,
      );
      expect(outcome.violations).toEqual([]);
      expect(outcome.query.toString()).toBe('shop_no=1');
    }
  });
  it('names a query copy that differs', () => {
    const outcome = reconcileRepeatedPathIds(
      operation('getCategory'),
      { category_no: '100' },
      new URLSearchParams('category_no=101'),
      undefined,
    );
    expect(outcome.violations).toEqual([
      {
        location: 'query',
        name: 'category_no',
        message: "must equal the path's value (100) when it is repeated",
      },
    ]);
  });
  it('drops agreeing copies inside request and beside it, and names a differing one', () => {
    const agreeing = reconcileRepeatedPathIds(
      operation('updateCategory'),
      { category_no: '100' },
      new URLSearchParams(),
      {
        shop_no: 1,
        category_no: '100',
        request: { category_no: 100, category_name: 'x' },
      },
    );
    expect(agreeing.violations).toEqual([]);
    expect(agreeing.body).toEqual({ shop_no: 1, request: { category_name: 'x' } });
    const differing = reconcileRepeatedPathIds(
      operation('updateCategory'),
      { category_no: '100' },
      new URLSearchParams(),
      {
        request: { category_no: 7 },
      },
    );
    expect(differing.violations.map((v) => v.name)).toEqual(['request.category_no']);
  });
  it('leaves alone a query parameter the operation declares under the same name', () => {
    const outcome = reconcileRepeatedPathIds(
      operation('listItems'),
      { shop_no: '1' },
      new URLSearchParams('shop_no=2'),
      undefined,
    );
    expect(outcome.violations).toEqual([]);
    expect(outcome.query.get('shop_no')).toBe('2');
  });
  it('does not change the query or body it was given', () => {
    const query = new URLSearchParams('category_no=100');
    const body = { request: { category_no: 100 } };
    reconcileRepeatedPathIds(operation('updateCategory'), { category_no: '100' }, query, body);
    expect(query.get('category_no')).toBe('100');
    expect(body.request.category_no).toBe(100);
  });
});
