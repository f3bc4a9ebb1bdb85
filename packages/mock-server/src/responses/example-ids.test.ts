// The ids example mode knows: the path parameters' own examples and the ids the documented
// responses carry under the same name; anything else is unknown.
import { createSpecModel, loadSpec, type OperationEntry } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { knownExampleIds, unknownExampleId } from './example-ids.js';

describe('ids known in example mode', () => {
  it('collects parameter examples and response ids', () => {
    const spec = createSpecModel({
      openapi: '3.1.0',
      paths: {
        '/items/{item_no}': {
          get: {
            operationId: 'getItem',
            parameters: [
              { name: 'item_no', in: 'path', required: true, example: 7, schema: { type: 'integer' } },
            ],
            responses: {
              '200': {
                content: {
                  'application/json': {
                    examples: { one: { value: { item: { item_no: 9, parts: [{ item_no: 11 }] } } } },
                  },
                },
              },
            },
          },
        },
      },
    });
    const known = knownExampleIds(spec, spec.operation('getItem') as OperationEntry);
    expect([...(known.get('item_no') ?? [])].sort()).toEqual(['11', '7', '9']);
    expect(unknownExampleId(known, { item_no: '9' })).toBeUndefined();
    expect(unknownExampleId(known, { item_no: '09' })).toBeUndefined();
    expect(unknownExampleId(known, { item_no: '28' })).toBe('item_no');
  });

  it('knows the admin examples’ category 44 and not category 28', async () => {
    const admin = await loadSpec('admin');
    const known = knownExampleIds(admin, admin.operation('getCategory') as OperationEntry);
    expect(unknownExampleId(known, { category_no: '44' })).toBeUndefined();
    expect(unknownExampleId(known, { category_no: '28' })).toBe('category_no');
  });
});
