import { describe, expect, it } from 'vitest';
import { apiLimits } from './api-limits.js';
import { manualClock } from './clock.js';
import { MemoryStore } from './memory-store.js';
import { type LimitPolicy, policyLimit } from './policy.js';

const start = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('MemoryStore', () => {
  it.each(Object.values(apiLimits))(
    'admits exactly the limit of 200 simultaneous calls ($name)',
    async ({ policy }) => {
      const store = new MemoryStore();
      const decisions = await Promise.all(
        Array.from({ length: 200 }, () => store.decide('client', policy, start)),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(policyLimit(policy));
    },
  );

  it('uses its clock when a call passes no time', async () => {
    const clock = manualClock(start);
    const store = new MemoryStore({ clock: clock.now });
    const policy: LimitPolicy = { kind: 'fixed-window', limit: 1, windowMs: 1_000 };
    expect((await store.decide('k', policy)).allowed).toBe(true);
    expect((await store.decide('k', policy)).allowed).toBe(false);
    clock.advance(1_000);
    expect((await store.decide('k', policy)).allowed).toBe(true);
  });

  it('keeps keys apart', async () => {
    const store = new MemoryStore();
    const policy: LimitPolicy = { kind: 'token-bucket', capacity: 1, refillIntervalMs: 1_000 };
    expect((await store.decide('a', policy, start)).allowed).toBe(true);
    expect((await store.decide('b', policy, start)).allowed).toBe(true);
    expect((await store.decide('a', policy, start)).allowed).toBe(false);
  });

  it('peek does not consume; observe raises usage to what a server reported', async () => {
    const store = new MemoryStore();
    const policy = apiLimits.collection.policy;
    expect((await store.peek('k', policy, start)).remaining).toBe(40);
    expect((await store.peek('k', policy, start)).remaining).toBe(40);
    expect(await store.observe('k', policy, 3, start)).toMatchObject({
      remaining: 3,
      used: 37,
      allowed: true,
    });
    expect((await store.observe('k', policy, 30, start)).remaining).toBe(3);
    expect((await store.decide('k', policy, start)).remaining).toBe(2);
  });

  it('forgets expired keys, so memory stays bounded by the recently active ones', async () => {
    const clock = manualClock(start);
    const store = new MemoryStore({ clock: clock.now, sweepIntervalMs: 10_000 });
    const policy: LimitPolicy = { kind: 'leaky-bucket', capacity: 5, leakPerSecond: 1 };
    for (let i = 0; i < 1_000; i++) await store.decide(`client-${i}`, policy);
    expect(store.size).toBe(1_000);
    clock.advance(10_000); // every bucket (1 call, 1 s to drain) is empty by now
    await store.decide('client-new', policy);
    expect(store.size).toBe(1);
  });

  it('does not sweep more often than the sweep interval', async () => {
    const clock = manualClock(start);
    const store = new MemoryStore({ clock: clock.now, sweepIntervalMs: 60_000 });
    const policy: LimitPolicy = { kind: 'token-bucket', capacity: 5, refillIntervalMs: 100 };
    await store.decide('first', policy);
    await store.decide('old', policy);
    clock.advance(1_000);
    await store.decide('new', policy);
    expect(store.size).toBe(3);
    expect((await store.peek('old', policy)).remaining).toBe(5);
  });
});
