// Duplicate creates at the function: a create is an entry answered 201; the same API, operation,
// path, query and body (key order aside) make the same request; each create of a request created
// before counts one.
import type { JournalEntry } from '@mall-api/mall-state';
import { describe, expect, it } from 'vitest';
import { duplicateCreates } from './duplicate-creates.js';

let sequence = 0;
const entry = (changes: Partial<JournalEntry> = {}): JournalEntry => ({
  sequence: ++sequence,
  receivedAt: '2030-01-01T00:00:00.000Z',
  api: 'admin',
  method: 'POST',
  path: '/api/v2/admin/categories',
  operationId: 'createCategory',
  query: {},
  body: { shop_no: 1, request: { category_name: 'Scarves' } },
  status: 201,
  answeredBy: 'answer',
  durationMs: 1,
  ...changes,
});

describe('duplicateCreates', () => {
  it('counts every create of a request created before, whatever the order of the body’s keys', () => {
    const first = entry({ lostAnswer: 'drop' });
    const again = entry({ body: { request: { category_name: 'Scarves' }, shop_no: 1 } });
    const third = entry();
    expect(duplicateCreates([first, again, third])).toEqual({
      duplicates: 2,
      groups: [expect.objectContaining({ sequences: [first.sequence, again.sequence, third.sequence] })],
    });
  });

  it('tells requests apart by API, operation, path, query and body', () => {
    const creates = [
      entry(),
      entry({ api: 'collection' }),
      entry({ operationId: 'createProduct' }),
      entry({ path: '/api/v2/admin/categories/2/products' }),
      entry({ query: { shop_no: '2' } }),
      entry({ body: { shop_no: 1, request: { category_name: 'Hats' } } }),
    ];
    expect(duplicateCreates(creates)).toEqual({ duplicates: 0, groups: [] });
  });

  it('counts only creates: entries answered otherwise are no records', () => {
    const refused = [entry({ status: 422 }), entry({ status: 504 }), entry({ status: 200 })];
    expect(duplicateCreates([...refused, entry()]).duplicates).toBe(0);
    expect(duplicateCreates([entry({ operationId: null }), entry({ operationId: null })]).duplicates).toBe(0);
  });
});
