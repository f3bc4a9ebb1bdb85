// Cross-parameter rules are read from the parameters' extensions: `x-not-less-than` for ranges of
// numbers and dates in the three APIs alike, `x-max-values-per-key`, `x-requires-one-of` and the
// operation's `x-mutually-exclusive`; a rule changed in a copy of the spec changes what is refused.
import { type ApiName, createSpecModel, type JsonObject, loadSpecSync } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { compileCrossParameterRules } from './cross-parameter-rules.js';

const checkOf = (document: JsonObject, operationId: string) => {
  const operation = createSpecModel(document).operation(operationId);
  if (!operation) throw new Error(`no ${operationId}`);
  return compileCrossParameterRules(operation);
};
const namesOf = (api: ApiName, operationId: string, query: Record<string, string | string[]>) =>
  checkOf(loadSpecSync(api).document, operationId)(query).map((v) => v.name);

describe('cross-parameter rules read from the specs', () => {
  it('x-not-less-than refuses an upper bound below its lower bound in all three APIs', () => {
    expect(namesOf('collection', 'listProducts', { price_min: '500', price_max: '100' })).toEqual([
      'price_max',
    ]);
    expect(namesOf('collection', 'listProducts', { price_min: '100', price_max: '100' })).toEqual([]);
    expect(
      namesOf('admin', 'listProducts', { created_start_date: '2026-02-01', created_end_date: '2026-01-31' }),
    ).toEqual(['created_end_date']);
    expect(
      namesOf('analytics', 'listVisitorViews', {
        start_date: '2026-10-07',
        end_date: '2026-10-01',
        mall_id: 'm',
      }),
    ).toEqual(['end_date']);
  });

  it('x-max-values-per-key and x-requires-one-of', () => {
    const tags = Array.from({ length: 11 }, (_, i) => `color:c${i}`).join(',');
    expect(namesOf('collection', 'listProducts', { product_standard_tags: tags })).toEqual([
      'product_standard_tags',
    ]);
    // A comma list repeated under its key: every occurrence counts (6 + 5 values of one key).
    const repeated = [tags.split(',').slice(0, 6).join(','), tags.split(',').slice(6).join(',')];
    expect(namesOf('collection', 'listProducts', { product_standard_tags: repeated })).toEqual([
      'product_standard_tags',
    ]);
    expect(
      namesOf('collection', 'listProducts', { product_standard_tags: ['color:a,color:b', 'size:m'] }),
    ).toEqual([]);
    expect(namesOf('admin', 'listProducts', { embed: 'variants' })).toEqual(['custom_product_code']);
    expect(namesOf('admin', 'listProducts', { embed: 'variants', custom_variant_code: 'X' })).toEqual([]);
  });

  it('an attribute-value filter (x-query) names the attributes a `<attribute>:<value>` item may use', () => {
    expect(
      namesOf('collection', 'listShops', { shop_properties: 'shop_grade:black,shop_language:ko_KR' }),
    ).toEqual([]);
    expect(namesOf('collection', 'listShops', { shop_properties: 'shop_grade:black,password:x' })).toEqual([
      'shop_properties',
    ]);
  });

  it('follows a rule changed in a copy of the spec', () => {
    const document = structuredClone(loadSpecSync('collection').document);
    const parameters = (document.components as JsonObject).parameters as JsonObject;
    ((parameters.ProductStandardTags as JsonObject)['x-max-values-per-key'] as JsonObject).maximum = 2;
    const check = checkOf(document, 'listProducts');
    expect(check({ product_standard_tags: 'color:a,color:b,color:c' }).map((v) => v.name)).toEqual([
      'product_standard_tags',
    ]);
    expect(check({ product_standard_tags: 'color:a,color:b' })).toEqual([]);
  });
});
