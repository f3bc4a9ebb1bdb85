// The parameter rule extensions as the specs state them, and how malformed or dangling ones read.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from './json-document.js';
import { hasNoParameterRules, parameterRulesOf } from './parameter-rules.js';
import { createSpecModel, loadSpecSync } from './spec-model.js';

const operation = (operationId: string) => {
  const found = loadSpecSync('collection').operation(operationId);
  if (!found) throw new Error(`no ${operationId}`);
  return found;
};

describe('parameterRulesOf', () => {
  it('reads the collection API’s product list rules', () => {
    const rules = parameterRulesOf(operation('listProducts'));
    expect(rules.notLessThan).toContainEqual({ upper: 'price_max', lower: 'price_min' });
    expect(rules.maxValuesPerKey).toContainEqual({
      name: 'product_standard_tags',
      maximum: expect.any(Number),
    });
    expect(hasNoParameterRules(rules)).toBe(false);
  });

  it('reads the attributes a store filter may name', () => {
    const [filter] = parameterRulesOf(operation('listShops')).attributeFilters;
    expect(filter?.name).toBe('shop_properties');
    expect(filter?.attributes).toContain('shop_grade');
  });

  it('keeps pairs of two, requirements with parameters, and bounds whose sibling exists', () => {
    const document = {
      openapi: '3.1.0',
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            'x-mutually-exclusive': [['a', 'b'], ['a'], 'c'],
            parameters: [
              { name: 'a', in: 'query', schema: { type: 'integer' }, 'x-not-less-than': { field: 'b' } },
              { name: 'b', in: 'query', schema: { type: 'integer' }, 'x-not-less-than': { field: 'gone' } },
              {
                name: 'c',
                in: 'query',
                schema: { type: 'array' },
                'x-requires-one-of': { red: ['a', 'b'], blue: [], 'x-provenance': ['a'] },
                'x-max-values-per-key': { maximum: 'two' },
              },
            ],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    } as unknown as JsonObject;
    const found = createSpecModel(document).operation('listThings');
    if (!found) throw new Error('no listThings');
    expect(parameterRulesOf(found)).toEqual({
      mutuallyExclusive: [['a', 'b']],
      notLessThan: [{ upper: 'a', lower: 'b' }],
      maxValuesPerKey: [],
      requiresOneOf: [{ name: 'c', value: 'red', oneOf: ['a', 'b'] }],
      attributeFilters: [],
    });
  });

  it('finds no rules where none is stated', () => {
    const bare = createSpecModel({
      openapi: '3.1.0',
      paths: { '/a': { get: { operationId: 'a', responses: { '200': { description: 'ok' } } } } },
    } as unknown as JsonObject).operation('a');
    if (!bare) throw new Error('no a');
    expect(hasNoParameterRules(parameterRulesOf(bare))).toBe(true);
  });
});
