// The control API's rules beyond shape at the function: operations the given specs of the APIs
// have, delay ranges, and the clock's range.
import { loadSpecs } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { clockViolation, delayViolation, latestClockMs, operationViolation } from './control-rules.js';

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
