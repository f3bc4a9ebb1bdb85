// The control API's rules beyond shape at the function: operations the given specs of the APIs
// have, delay ranges, profiles, the clock's range, and the longest delay the control spec allows.
import { createSpecModel, loadSpec, loadSpecs } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import {
  clockViolation,
  delayBound,
  delayViolation,
  latestClockMs,
  operationViolation,
  profileViolation,
} from './control-rules.js';

describe('operationViolation', () => {
  it('accepts an operation of the named API or, unnamed, of any API', async () => {
    const specs = await loadSpecs();
    expect(operationViolation(specs, 'admin', 'listCategories', 'match.operationId')).toBeUndefined();
    expect(operationViolation(specs, undefined, 'listCategories', 'match.operationId')).toBeUndefined();
    expect(operationViolation(specs, undefined, undefined, 'match.operationId')).toBeUndefined();
  });
  it('names an operation the API does not have', async () => {
    const specs = await loadSpecs();
    expect(operationViolation(specs, 'analytics', 'listCategories', 'match.operationId')).toEqual({
      location: 'body',
      name: 'match.operationId',
      message: 'listCategories is not an operation of the analytics API',
    });
    expect(operationViolation(specs, undefined, 'listCategorys', 'operationId', 'query')?.location).toBe(
      'query',
    );
  });
  it('reads the operations from the specs it is given', async () => {
    const shipped = await loadSpecs();
    // The analytics spec given as the admin API's: admin's operations are analytics' then.
    const specs = { ...shipped, admin: shipped.analytics };
    expect(operationViolation(specs, 'admin', 'listCategories', 'match.operationId')?.name).toBe(
      'match.operationId',
    );
    const [analyticsOperation] = shipped.analytics.operations;
    expect(
      operationViolation(specs, 'admin', analyticsOperation?.operationId, 'match.operationId'),
    ).toBeUndefined();
  });
});

describe('delayViolation', () => {
  it('refuses a range that runs backwards and nothing else', () => {
    expect(delayViolation({ kind: 'delay', minMs: 500, maxMs: 100 })?.name).toBe('action.maxMs');
    expect(delayViolation({ kind: 'delay', minMs: 100, maxMs: 100 })).toBeUndefined();
    expect(delayViolation({ kind: 'delay', minMs: 100 })).toBeUndefined();
  });
});

describe('profileViolation', () => {
  it('refuses a profile that draws nothing, rates over 1, and latency ranges that run backwards', () => {
    expect(profileViolation({ kind: 'profile' })?.name).toBe('action');
    const errors = [0.5, 0.3, 0.2].map((rate) => ({ rate }));
    expect(profileViolation({ kind: 'profile', errors })).toBeUndefined();
    expect(profileViolation({ kind: 'profile', errors: [...errors, { rate: 0.01 }] })?.name).toBe(
      'action.errors',
    );
    const latency = (keys: object) => ({ kind: 'profile', latency: { distribution: 'x', ...keys } });
    expect(profileViolation(latency({ minMs: 9, maxMs: 8 }))?.name).toBe('action.latency/maxMs');
    expect(profileViolation(latency({ medianMs: 9, p99Ms: 8 }))?.name).toBe('action.latency/p99Ms');
    expect(profileViolation(latency({ medianMs: 9, p99Ms: 9 }))).toBeUndefined();
    expect(profileViolation({ kind: 'delay' })).toBeUndefined();
  });
});

describe('delayBound', () => {
  it('is the maximum of the control spec’s DelayMs, and a spec without one is an error', async () => {
    const control = await loadSpec('control');
    const document = structuredClone(control.document);
    expect(delayBound(control)).toBe(
      (document as { components: { schemas: { DelayMs: { maximum: number } } } }).components.schemas.DelayMs
        .maximum,
    );
    const changed = document as { components: { schemas: { DelayMs: { maximum?: number } } } };
    changed.components.schemas.DelayMs.maximum = 1_234;
    expect(delayBound(createSpecModel(changed as never))).toBe(1_234);
    delete changed.components.schemas.DelayMs.maximum;
    expect(() => delayBound(createSpecModel(changed as never))).toThrow(/DelayMs/);
  });
});

describe('clockViolation', () => {
  it('keeps a clock between 1970 and the end of 9999', () => {
    expect(clockViolation('at', Date.parse('2030-01-01T00:00:00Z'))).toBeUndefined();
    expect(clockViolation('at', latestClockMs)).toBeUndefined();
    expect(clockViolation('at', Date.parse('+275760-09-13T00:00:00Z'))?.name).toBe('at');
    expect(clockViolation('at', Date.parse('1969-12-31T23:59:59Z'))?.name).toBe('at');
    expect(clockViolation('advanceMs', latestClockMs + 1)?.name).toBe('advanceMs');
    expect(clockViolation('at', Number.NaN)?.name).toBe('at');
  });
});
