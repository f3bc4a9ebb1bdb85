// Fault rules at the function: the first matching rule applies, a counted rule is used up, and
// rules of one mall never touch another.
import { describe, expect, it } from 'vitest';
import { redisFaultRules } from '../redis/redis-fault-rules.js';
import { useTestRedis } from '../testing/shared-redis.js';
import { createFaultRules, type FaultRules } from './fault-rules.js';

const redis = useTestRedis();
const implementations: [string, () => Promise<FaultRules>][] = [
  ['memory', async () => createFaultRules()],
  ['redis', async () => redisFaultRules(await redis.connect())],
];

const target = {
  api: 'admin',
  operationId: 'listCategories',
  method: 'GET',
  path: '/api/v2/admin/categories',
};

describe.each(implementations)('fault rules (%s)', (_, createFaultRules) => {
  it('applies a counted rule that many times, then lets requests through', async () => {
    const rules = await createFaultRules();
    await rules.add('a', {
      match: { operationId: 'listCategories' },
      action: { kind: 'status', status: 503 },
      remaining: 2,
    });
    const taken = [];
    for (let call = 0; call < 3; call += 1) taken.push((await rules.take('a', target))?.kind);
    expect(taken).toEqual(['status', 'status', undefined]);
  });
  it('matches on every given field and only at its mall', async () => {
    const rules = await createFaultRules();
    await rules.add('a', { match: { method: 'post' }, action: { kind: 'drop' } });
    expect(await rules.take('a', target)).toBeUndefined();
    expect(await rules.take('a', { ...target, method: 'POST' })).toEqual({ kind: 'drop' });
    expect(await rules.take('b', { ...target, method: 'POST' })).toBeUndefined();
  });
  it('removes one rule or clears them all', async () => {
    const rules = await createFaultRules();
    const first = await rules.add('a', { match: {}, action: { kind: 'hang' } });
    await rules.add('a', { match: {}, action: { kind: 'drop' } });
    expect(await rules.remove('a', first.id)).toBe(true);
    expect(await rules.take('a', target)).toEqual({ kind: 'drop' });
    expect(await rules.clear('a')).toBe(1);
    expect(await rules.list('a')).toEqual([]);
  });
});
