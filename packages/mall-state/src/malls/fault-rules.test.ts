// Fault rules at the function: the first matching rule applies, a counted rule is used up, a
// profile's calls are numbered, rules of one mall never touch another, and rules on deliveries and
// on requests never touch each other.
import { describe, expect, it } from 'vitest';
import { connectRedis } from '../redis/redis-connection.js';
import { redisFaultRules } from '../redis/redis-fault-rules.js';
import { useTestRedis } from '../testing/shared-redis.js';
import { createFaultRules, deliveryTarget, type FaultRules } from './fault-rules.js';

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
    for (let call = 0; call < 3; call += 1) taken.push((await rules.take('a', target))?.action.kind);
    expect(taken).toEqual(['status', 'status', undefined]);
  });
  it('keeps rules on deliveries and on requests apart, a delivery matched by its event', async () => {
    const rules = await createFaultRules();
    const delivery = { api: deliveryTarget, eventNo: 90001, operationId: '', method: 'POST', path: '' };
    await rules.add('a', { match: {}, action: { kind: 'hang' } });
    expect(await rules.take('a', delivery)).toBeUndefined();
    await rules.add('a', { match: { api: deliveryTarget, event_no: 90002 }, action: { kind: 'drop' } });
    await rules.add('a', { match: { api: deliveryTarget, event_no: 90001 }, action: { kind: 'duplicate' } });
    expect((await rules.take('a', delivery))?.action).toEqual({ kind: 'duplicate' });
    expect((await rules.take('a', { ...delivery, eventNo: 90002 }))?.action).toEqual({ kind: 'drop' });
    expect((await rules.take('a', target))?.action).toEqual({ kind: 'hang' });
  });
  it('matches on every given field and only at its mall', async () => {
    const rules = await createFaultRules();
    await rules.add('a', { match: { method: 'post' }, action: { kind: 'drop' } });
    expect(await rules.take('a', target)).toBeUndefined();
    expect(await rules.take('a', { ...target, method: 'POST' })).toEqual({
      action: { kind: 'drop' },
      call: 0,
    });
    expect(await rules.take('b', { ...target, method: 'POST' })).toBeUndefined();
  });
  it('removes one rule or clears them all', async () => {
    const rules = await createFaultRules();
    const first = await rules.add('a', { match: {}, action: { kind: 'hang' } });
    await rules.add('a', { match: {}, action: { kind: 'drop' } });
    expect(await rules.remove('a', first.id)).toBe(true);
    expect((await rules.take('a', target))?.action).toEqual({ kind: 'drop' });
    expect(await rules.clear('a')).toBe(1);
    expect(await rules.list('a')).toEqual([]);
  });
  it('numbers the calls of each profile from 0, a counted one until it is used up', async () => {
    const rules = await createFaultRules();
    const profile = { kind: 'profile', latency: { distribution: 'fixed', ms: 5 }, seed: 7 } as const;
    const counted = await rules.add('a', { match: { method: 'POST' }, action: profile, remaining: 2 });
    await rules.add('a', { match: {}, action: profile });
    const post = { ...target, method: 'POST' };
    const calls = [];
    for (let call = 0; call < 3; call += 1) calls.push(await rules.take('a', post));
    calls.push(await rules.take('a', target));
    expect(calls.map((fired) => fired?.call)).toEqual([0, 1, 0, 1]);
    expect(await rules.list('a')).not.toContainEqual(expect.objectContaining({ id: counted.id }));
    expect((await rules.take('b', target))?.call).toBeUndefined();
  });
});

describe('fault rules shared in Redis', () => {
  it('number a profile’s calls across replicas, and forget the numbers when the rules are cleared', async () => {
    const shared = await redis.connect();
    const prefix = shared.prefix;
    const other = await connectRedis({ url: redis.url(), prefix, log: () => {} });
    try {
      const [a, b] = [redisFaultRules(shared), redisFaultRules(other)];
      const action = { kind: 'profile', errors: [{ status: 503, rate: 0.5 }], seed: 1 } as const;
      await a.add('m', { match: {}, action });
      const calls = [];
      for (const replica of [a, b, a, b]) calls.push((await replica.take('m', target))?.call);
      expect(calls).toEqual([0, 1, 2, 3]);
      await b.clear('m');
      expect(await shared.client.exists(`${prefix}mall:m:fault-calls`)).toBe(0);
    } finally {
      await other.close();
    }
  });
});
