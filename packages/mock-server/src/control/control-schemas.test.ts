// The control schemas at the function: each mistake is one violation naming its key, whichever
// branch of a union it falls in.
import { describe, expect, it } from 'vitest';
import { controlViolations } from './control-schemas.js';

const names = (schema: Parameters<typeof controlViolations>[0], value: unknown) =>
  controlViolations(schema, value).map((violation) => violation.name);

describe('control schemas', () => {
  it('accepts every documented reset target', () => {
    for (const to of ['seed', 'empty', { seed: 3 }, { fixture: 'shop' }])
      expect(controlViolations('reset', { to }), JSON.stringify(to)).toEqual([]);
  });
  it('names an unknown key of a reset target once', () => {
    expect(controlViolations('reset', { to: { sed: 1 } })).toEqual([
      { location: 'body', name: 'to.sed', message: 'is not a known key' },
    ]);
    expect(names('reset', { to: 'blank' })).toEqual(['to']);
    expect(names('reset', { to: { seed: -1 } })).toEqual(['to.seed']);
    expect(names('reset', { to: { seed: 1, fixture: 'x' } })).toEqual(['to']);
    expect(names('reset', { too: 'seed' })).toEqual(['too']);
  });
  it('checks a fault action by its kind, one violation per mistake', () => {
    expect(controlViolations('fault', { action: { kind: 'status', status: 503 } })).toEqual([]);
    expect(controlViolations('fault', { action: { kind: 'delay', minMs: 5, maxMs: 9 } })).toEqual([]);
    expect(controlViolations('fault', { action: { kind: 'drop' } })).toEqual([]);
    expect(names('fault', { action: { kind: 'status', status: 200 } })).toEqual(['action.status']);
    expect(names('fault', { action: { kind: 'status', status: 503, minMs: 1 } })).toEqual(['action.minMs']);
    expect(names('fault', { action: { kind: 'delay' } })).toEqual(['action.minMs']);
    expect(names('fault', { action: { kind: 'explode' } })).toEqual(['action.kind']);
    expect(names('fault', { action: { status: 503 } })).toEqual(['action.kind']);
    expect(names('fault', { action: { kind: 'hang', status: 503 } })).toEqual(['action.status']);
    expect(names('fault', { match: { operationID: 'x' }, action: { kind: 'drop' } })).toEqual([
      'match.operationID',
    ]);
  });
  it('takes one clock change at a time', () => {
    expect(names('clock', {})).toEqual(['body']);
    expect(names('clock', { advanceMs: 1, at: '2030-01-01T00:00:00Z' })).toEqual(['body']);
    expect(names('clock', { advanceMs: -1 })).toEqual(['advanceMs']);
  });
});
