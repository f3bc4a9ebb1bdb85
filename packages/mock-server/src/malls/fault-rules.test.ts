// Fault rules at the function: the first matching rule applies, a counted rule is used up, and
// rules of one mall never touch another.
import { describe, expect, it } from 'vitest';
import { createFaultRules } from './fault-rules.js';

const target = {
  api: 'admin',
  operationId: 'listCategories',
  method: 'GET',
  path: '/api/v2/admin/categories',
};

describe('fault rules', () => {
  it('applies a counted rule that many times, then lets requests through', () => {
    const rules = createFaultRules();
    rules.add('a', {
      match: { operationId: 'listCategories' },
      action: { kind: 'status', status: 503 },
      remaining: 2,
    });
    expect(
      [rules.take('a', target), rules.take('a', target), rules.take('a', target)].map((a) => a?.kind),
    ).toEqual(['status', 'status', undefined]);
  });
  it('matches on every given field and only at its mall', () => {
    const rules = createFaultRules();
    rules.add('a', { match: { method: 'post' }, action: { kind: 'drop' } });
    expect(rules.take('a', target)).toBeUndefined();
    expect(rules.take('a', { ...target, method: 'POST' })).toEqual({ kind: 'drop' });
    expect(rules.take('b', { ...target, method: 'POST' })).toBeUndefined();
  });
  it('removes one rule or clears them all', () => {
    const rules = createFaultRules();
    const first = rules.add('a', { match: {}, action: { kind: 'hang' } });
    rules.add('a', { match: {}, action: { kind: 'drop' } });
    expect(rules.remove('a', first.id)).toBe(true);
    expect(rules.take('a', target)).toEqual({ kind: 'drop' });
    expect(rules.clear('a')).toBe(1);
    expect(rules.list('a')).toEqual([]);
  });
});
