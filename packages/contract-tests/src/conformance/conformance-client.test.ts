// The conformance client sends the mall its credential reads wherever an operation names the mall
// read (`x-query` role `mall`): the analytics statistics of the credential's own mall, not the
// spec's example mall.
import { loadSpec, mallParameterOf } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { queryString, withMall } from './conformance-client.js';

const analytics = await loadSpec('analytics');

describe('withMall', () => {
  const operation = analytics.operations.find((entry) => mallParameterOf(entry) !== undefined);
  if (!operation) throw new Error('the analytics spec declares no mall parameter');
  const mall = mallParameterOf(operation) ?? '';

  it('replaces the example mall with the credential’s mall', () => {
    const query = withMall(operation, { [mall]: 'example-mall', limit: 10 }, 'my-mall');
    expect(query[mall]).toBe('my-mall');
    expect(queryString(operation, query)).toContain(`${mall}=my-mall`);
  });

  it('leaves a query without the parameter, or a run without a known mall, as it is', () => {
    expect(withMall(operation, { limit: 10 }, 'my-mall')).toEqual({ limit: 10 });
    expect(withMall(operation, { [mall]: 'example-mall' }, undefined)).toEqual({ [mall]: 'example-mall' });
  });
});
