// Violation naming from real Ajv errors: parameters by their own name, body fields by their path
// (`request.items/1/price`), missing and unknown keys by the key, messages as the API words them.
import { describe, expect, it } from 'vitest';
import { createAjv } from './ajv-instance.js';
import { fieldViolation, isReportedError, parameterViolation } from './violation-naming.js';

const errorsOf = (schema: object, value: unknown) => {
  const validate = createAjv().compile(schema);
  expect(validate(value)).toBe(false);
  return validate.errors ?? [];
};

const body = {
  type: 'object',
  properties: {
    request: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: { type: 'string' },
        kind: { enum: ['a', 'b'] },
        'a/b': { type: 'integer' },
        items: { type: 'array', items: { type: 'object', properties: { price: { type: 'integer' } } } },
      },
    },
  },
};

describe('parameterViolation', () => {
  it('names the parameter, not an item below it', () => {
    const schema = { type: 'object', properties: { no: { type: 'array', items: { type: 'integer' } } } };
    expect(errorsOf(schema, { no: [1, 'x'] }).map(parameterViolation)).toEqual([
      { name: 'no', message: 'must be integer' },
    ]);
  });

  it('names a missing required parameter', () => {
    const schema = { type: 'object', required: ['shop_no'] };
    expect(errorsOf(schema, {}).map(parameterViolation)).toEqual([
      { name: 'shop_no', message: 'is required' },
    ]);
  });
});

describe('fieldViolation', () => {
  it('names a field by its path with item indexes, a dot after the first key', () => {
    const [error] = errorsOf(body, { request: { name: 'n', items: [{ price: 1 }, { price: 'x' }] } });
    expect(error && fieldViolation(error)).toEqual({
      name: 'request.items/1/price',
      message: 'must be integer',
    });
  });

  it('names a missing field as the field it should be, and lists enum values', () => {
    const violations = errorsOf(body, { request: { kind: 'c' } }).map((error) => fieldViolation(error));
    expect(violations).toEqual([
      { name: 'request.name', message: 'is required' },
      { name: 'request.kind', message: 'must be one of a, b' },
    ]);
  });

  it('unescapes JSON pointer segments', () => {
    const [error] = errorsOf(body, { request: { name: 'n', 'a/b': 'x' } });
    expect(error && fieldViolation(error).name).toBe('request.a/b');
  });

  it('names an unknown key itself, not the object that holds it', () => {
    const [error] = errorsOf(body, { request: { name: 'n', sed: 1 } });
    if (!error) throw new Error('no error');
    expect(fieldViolation(error)).toEqual({
      name: 'request.sed',
      message: 'is not a known key',
    });
  });

  it('starts from a root and drops the instance path a record begins below', () => {
    const [error] = errorsOf(body, { request: { name: 'n', items: [{ price: 'x' }] } });
    if (!error) throw new Error('no error');
    expect(fieldViolation(error, { root: 'products', within: '/request' }).name).toBe(
      'products.items/0/price',
    );
    expect(fieldViolation(error, { root: 'body' }).name).toBe('body.request/items/0/price');
  });

  it('names an error at the root `request`, or the root given', () => {
    const [error] = errorsOf({ type: 'object' }, 3);
    if (!error) throw new Error('no error');
    expect(fieldViolation(error).name).toBe('request');
    expect(fieldViolation(error, { root: 'tables' }).name).toBe('tables');
  });
});

describe('isReportedError', () => {
  it('drops the `if` error that only repeats its branch’s errors', () => {
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema conditional, not a promise
    const schema = { if: { required: ['a'] }, then: { required: ['b'] } };
    const errors = errorsOf(schema, { a: 1 });
    expect(errors.map((e) => e.keyword)).toEqual(['required', 'if']);
    expect(errors.filter(isReportedError).map((e) => fieldViolation(e).name)).toEqual(['b']);
  });
});
