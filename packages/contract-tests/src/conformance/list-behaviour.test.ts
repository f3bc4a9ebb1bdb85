// What a list answer must show about the request that asked for it.
import { createSpecModel } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { listProblems } from './list-behaviour.js';

const model = createSpecModel({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'state', in: 'query', schema: { type: 'string', enum: ['T', 'F'] } },
          { name: 'tag', in: 'query', schema: { type: 'string', enum: ['a', 'b'] } },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: ['price'], default: 'price' } },
          { name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
});
const operation = model.operation('listItems');
if (!operation) throw new Error('no operation');
const items = (...prices: number[]) => ({
  items: prices.map((price) => ({ price, state: 'T', tag: ['a', 'b'] })),
});

describe('list behaviour', () => {
  it('accepts a list that honours limit, filters and order', () => {
    expect(listProblems(operation, { limit: 3, state: 'T', tag: 'b' }, items(1, 2, 3))).toEqual([]);
  });

  it('finds more items than the limit', () => {
    expect(listProblems(operation, { limit: 2 }, items(1, 2, 3))).toEqual(['limit=2 answered with 3 items']);
  });

  it('finds an item the enum filter excludes; a list attribute must contain the value', () => {
    expect(listProblems(operation, { state: 'F' }, items(1))).toEqual([
      'state=F answered an item with state=T',
    ]);
    expect(listProblems(operation, { tag: 'a' }, items(1))).toEqual([]);
  });

  it('finds items out of the order asked for, or of the default order', () => {
    expect(listProblems(operation, { order: 'desc' }, items(1, 2))).toEqual([
      'sort=price&order=desc: item 0 and 1 are out of order',
    ]);
    expect(listProblems(operation, {}, items(2, 1))).toEqual([
      'sort=price&order=asc: item 0 and 1 are out of order',
    ]);
  });
});
