// The body rules are read from the rule extensions of the request schemas: each one refuses what
// it says and names the field, and a rule changed in a copy of the spec changes what is refused.
import { createSpecModel, type JsonObject, loadSpecSync } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { compileBodyRules } from './body-rules.js';

const admin = loadSpecSync('admin');

const names = (operationId: string, request: unknown) =>
  compileBodyRules(admin, operationId)({ shop_no: 1, request }).map((v) => v.name);

describe('body rules read from the admin spec', () => {
  it('x-decimal-maximum: amounts above the Amount ceiling, top-level and in shipping rates', () => {
    expect(names('updateProduct', { price: '2147483648', supply_price: '2147483647' })).toEqual([
      'request.price',
    ]);
    expect(
      names('updateProduct', { shipping_rates: [{ shipping_fee: '1' }, { shipping_fee: '3000000000' }] }),
    ).toEqual(['request.shipping_rates/1/shipping_fee']);
  });

  it('x-not-less-than: an interval, a period and an icon period may not run backwards', () => {
    expect(
      names('updateProduct', {
        shipping_rates: [{ shipping_rates_min: '500', shipping_rates_max: '100', shipping_fee: '1' }],
        icon_exposure_begin_datetime: '2026-12-24T00:00:00+09:00',
        icon_exposure_end_datetime: '2026-12-01T00:00:00+09:00',
      }).sort(),
    ).toEqual(['request.icon_exposure_end_datetime', 'request.shipping_rates/0/shipping_rates_max']);
    expect(names('createBundleProduct', { shipping_period: { minimum: 8 } })).toEqual([
      'request.shipping_period/maximum',
    ]);
    expect(names('createBundleProduct', { shipping_period: { minimum: 7 } })).toEqual([]);
  });

  it('x-joined-max-length, x-max-value-combinations and x-subset-of', () => {
    expect(names('createProduct', { product_tag: ['a'.repeat(100), 'b'.repeat(100)] })).toEqual([
      'request.product_tag',
    ]);
    expect(names('createProduct', { product_tag: ['a'.repeat(100), 'b'.repeat(99)] })).toEqual([]);
    const options = (a: number, b: number) => [
      { name: 'Color', value: Array.from({ length: a }, (_, i) => `c${i}`) },
      { name: 'Size', value: Array.from({ length: b }, (_, i) => `s${i}`) },
    ];
    expect(names('createProduct', { options: options(10, 10) })).toEqual([]);
    expect(names('createProduct', { options: options(10, 11) })).toEqual(['request.options']);
    expect(names('updateMainProduct', { product_no: [1, 2], fix_product_no: [2, 3] })).toEqual([
      'request.fix_product_no/1',
    ]);
  });

  it('finds nothing for an operation without rules or without a body', () => {
    expect(names('createCategory', { category_name: 'x'.repeat(10) })).toEqual([]);
    expect(compileBodyRules(admin, 'listProducts')(undefined)).toEqual([]);
  });

  it('follows a rule changed in a copy of the spec', () => {
    const document = structuredClone(admin.document);
    const schemas = (document.components as JsonObject).schemas as JsonObject;
    const request = schemas.CreateProductRequest as JsonObject;
    const find = (node: unknown): JsonObject | undefined => {
      if (typeof node !== 'object' || node === null) return undefined;
      const fields = node as JsonObject;
      if (fields['x-joined-max-length']) return fields['x-joined-max-length'] as JsonObject;
      for (const inner of Object.values(fields)) {
        const found = find(inner);
        if (found) return found;
      }
      return undefined;
    };
    const rule = find(request);
    if (!rule) throw new Error('CreateProductRequest has no x-joined-max-length');
    rule.maximum = 5;
    const check = compileBodyRules(createSpecModel(document), 'createProduct');
    expect(check({ request: { product_tag: ['abc', 'de'] } }).map((v) => v.name)).toEqual([
      'request.product_tag',
    ]);
    expect(check({ request: { product_tag: ['ab', 'de'] } })).toEqual([]);
  });
});
