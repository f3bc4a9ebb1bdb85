// Control input against the control API's OpenAPI document, through the request validator the APIs
// use: each mistake is one violation naming its key, whichever branch of a union it falls in.
import { loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { requestValidatorCompiler } from '../validation/request-validator.js';

const spec = await loadSpec('control');
const compile = requestValidatorCompiler(spec);
const validator = (operationId: string) => {
  const operation = spec.operation(operationId);
  if (!operation) throw new Error(`the control document has no ${operationId}`);
  return compile(operation);
};
const check = (operationId: string, body: unknown) =>
  validator(operationId)({ pathParameters: { mall: 'qa1' }, query: {}, headers: {}, body }).violations;
const names = (operationId: string, body: unknown) => check(operationId, body).map((v) => v.name);

describe('control input against the control document', () => {
  it('accepts every documented reset target', () => {
    for (const to of ['seed', 'empty', { seed: 3 }, { fixture: 'shop' }])
      expect(check('createReset', { to }), JSON.stringify(to)).toEqual([]);
  });
  it('names an unknown key of a reset target once', () => {
    expect(check('createReset', { to: { sed: 1 } })).toEqual([
      { location: 'body', name: 'to.sed', message: 'is not a known key' },
    ]);
    expect(names('createReset', { to: 'blank' })).toEqual(['to']);
    expect(names('createReset', { to: { seed: -1 } })).toEqual(['to.seed']);
    expect(names('createReset', { to: { seed: 1, fixture: 'x' } })).toEqual(['to']);
    expect(names('createReset', { too: 'seed' })).toEqual(['too']);
  });
  it('checks a fault action by its kind, one violation per mistake', () => {
    expect(check('createFault', { action: { kind: 'status', status: 503 } })).toEqual([]);
    expect(check('createFault', { action: { kind: 'delay', minMs: 5, maxMs: 9 } })).toEqual([]);
    expect(check('createFault', { action: { kind: 'drop' } })).toEqual([]);
    expect(names('createFault', { action: { kind: 'status', status: 200 } })).toEqual(['action.status']);
    expect(names('createFault', { action: { kind: 'status', status: 503, minMs: 1 } })).toEqual([
      'action.minMs',
    ]);
    expect(names('createFault', { action: { kind: 'delay' } })).toEqual(['action.minMs']);
    expect(names('createFault', { action: { kind: 'explode' } })).toEqual(['action.kind']);
    expect(names('createFault', { action: { status: 503 } })).toEqual(['action.kind']);
    expect(names('createFault', { action: { kind: 'hang', status: 503 } })).toEqual(['action.status']);
    expect(names('createFault', { match: { operationID: 'x' }, action: { kind: 'drop' } })).toEqual([
      'match.operationID',
    ]);
  });
  it('takes one clock change at a time, as a date-time', () => {
    expect(check('updateClock', { at: '2030-01-01T00:00:00Z' })).toEqual([]);
    expect(names('updateClock', {})).toEqual(['request']);
    expect(names('updateClock', { advanceMs: 1, at: '2030-01-01T00:00:00Z' })).toEqual(['request']);
    expect(names('updateClock', { advanceMs: -1 })).toEqual(['advanceMs']);
    expect(names('updateClock', { at: '+275760-09-13T00:00:00.000Z' })).toEqual(['at']);
  });
  it('checks a snapshot’s shape, naming the bad row by its index as the sandbox names it', () => {
    expect(names('updateSnapshot', { format: 'other', version: 1, tables: {} })).toEqual(['format']);
    expect(
      names('updateSnapshot', {
        format: 'mall-api-sandbox-snapshot',
        version: 1,
        tables: { category: [['1']] },
      }),
    ).toEqual(['tables.category/0']);
  });
});
