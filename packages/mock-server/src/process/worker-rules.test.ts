// When more than one worker may run: only with the malls on PostgreSQL and the shared state on Redis.
import { describe, expect, it } from 'vitest';
import { sharedStoresGiven, workersRefusal } from './worker-rules.js';

describe('sharedStoresGiven', () => {
  it('is true for a postgres:// or postgresql:// store with a Redis URL', () => {
    expect(sharedStoresGiven({ store: 'postgres://db/mall', redis: 'redis://cache:6379' })).toBe(true);
    expect(sharedStoresGiven({ store: 'postgresql://db/mall', redis: 'redis://cache:6379' })).toBe(true);
  });

  it('is false without Redis, with a per-process store, or with neither option parsed', () => {
    expect(sharedStoresGiven({ store: 'postgres://db/mall' })).toBe(false);
    expect(sharedStoresGiven({ store: 'postgres://db/mall', redis: '  ' })).toBe(false);
    expect(sharedStoresGiven({ store: 'memory', redis: 'redis://cache:6379' })).toBe(false);
    expect(sharedStoresGiven({ store: 'sqlite:///var/lib/mall', redis: 'redis://cache:6379' })).toBe(false);
    expect(sharedStoresGiven({ redis: 'redis://cache:6379' })).toBe(false);
    expect(sharedStoresGiven({})).toBe(false);
  });
});

describe('workersRefusal', () => {
  it('lets one worker run on any store', () => {
    expect(workersRefusal(1, {})).toBeUndefined();
  });

  it('refuses two workers on per-process stores, saying why and what to pass', () => {
    const refusal = workersRefusal(2, { store: 'memory' });
    expect(refusal).toContain('--workers 2 needs shared stores');
    expect(refusal).toContain('its own memory or SQLite file');
    expect(refusal).toContain('--store postgres://');
    expect(refusal).toContain('--redis redis://');
  });

  it('lets two workers run on PostgreSQL and Redis', () => {
    expect(workersRefusal(2, { store: 'postgres://db/mall', redis: 'redis://cache' })).toBeUndefined();
  });
});
