// Parameter conversion by style: a comma list (`explode: false`) sent under a repeated key keeps
// every occurrence's items, as the collection API's `product_standard_tags` is read from the spec.
import { loadSpecSync } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { coerceParameter } from './parameter-coercion.js';

const parameterOf = (operationId: string, name: string) => {
  const found = loadSpecSync('collection')
    .operation(operationId)
    ?.parameters.find((parameter) => parameter.name === name);
  if (!found) throw new Error(`no ${name} on ${operationId}`);
  return found;
};

describe('coerceParameter', () => {
  it('reads every occurrence of a repeated comma-list key, each split at its commas', () => {
    const tags = parameterOf('listProducts', 'product_standard_tags');
    expect(tags.explode).toBe(false);
    expect(coerceParameter(tags, ['color:black,color:gray', 'size:m'], { type: 'string' })).toEqual([
      'color:black',
      'color:gray',
      'size:m',
    ]);
    expect(coerceParameter(tags, 'color:black,size:m', { type: 'string' })).toEqual([
      'color:black',
      'size:m',
    ]);
  });

  it('turns numerals into numbers where the item schema asks for them', () => {
    const limit = parameterOf('listProducts', 'limit');
    expect(coerceParameter(limit, '20', undefined)).toBe(20);
  });
});
