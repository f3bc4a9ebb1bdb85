// The requests derived from one operation's parameters and rules: a baseline at the examples,
// valid variants one parameter at a time, and one invalid request per keyword and x- rule naming
// the field the answer's violation must name.
import { createSpecModel, type JsonObject } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { exampleOf, invalidValues, validVariants } from './parameter-values.js';
import { requestCases } from './request-cases.js';

const parameter = (name: string, schema: JsonObject, extra: JsonObject = {}) => ({
  name,
  in: 'query',
  schema,
  ...extra,
});
const document = {
  openapi: '3.1.0',
  'x-api-versions': {
    header: 'X-Version',
    versions: [{ date: '2026-01-01' }, { date: '2025-01-01' }],
    'unknown-version': { 'answered-as': 'oldest' },
  },
  info: { title: 't', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        'x-mutually-exclusive': [['since', 'ids']],
        parameters: [
          parameter('start', { type: 'string', format: 'date' }, { required: true, example: '2026-11-01' }),
          parameter(
            'end',
            { type: 'string', format: 'date' },
            { example: '2026-11-03', 'x-not-less-than': { field: 'start' } },
          ),
          parameter('limit', { type: 'integer', minimum: 1, maximum: 50, default: 10 }),
          parameter('state', { type: 'string', enum: ['T', 'F'] }),
          parameter(
            'ids',
            { type: 'array', maxItems: 3, items: { type: 'integer', minimum: 1 } },
            { example: [5] },
          ),
          parameter('since', { type: 'string', maxLength: 8 }, { example: 'abc' }),
          {
            name: 'X-Version',
            in: 'header',
            schema: { type: 'string', format: 'date', enum: ['2026-01-01', '2025-01-01'] },
          },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};
const model = createSpecModel(document);
const operation = model.operation('listItems');
if (!operation) throw new Error('no operation');
const named = (name: string) => {
  const found = operation.parameters.find((p) => p.name === name);
  if (!found) throw new Error(name);
  return found;
};

describe('parameter values', () => {
  it('takes the documented example, else the schema default', () => {
    expect(exampleOf(named('start'))).toBe('2026-11-01');
    expect(exampleOf(named('limit'))).toBe(10);
  });

  it('varies a range to both ends and one seeded value inside, the same for the same seed', () => {
    const variants = validVariants(named('limit'), {}, 7);
    expect(variants.slice(0, 2)).toEqual([
      { value: 1, label: 'minimum' },
      { value: 50, label: 'maximum' },
    ]);
    const inner = variants[2]?.value as number;
    expect(inner).toBeGreaterThan(1);
    expect(inner).toBeLessThan(50);
    expect(validVariants(named('limit'), {}, 7)[2]?.value).toBe(inner);
  });

  it('fills a list to its maxItems with distinct valid items and breaks it with one more', () => {
    const items = { type: 'integer', minimum: 1 };
    expect(validVariants(named('ids'), items, 1)).toContainEqual({ value: [1, 2, 3], label: 'maxItems' });
    expect(invalidValues(named('ids'), items)).toContainEqual({ value: [1, 2, 3, 4], label: 'maxItems' });
  });

  it('breaks each keyword once: below the minimum, above the maximum, the type, outside the enum, past maxLength', () => {
    expect(invalidValues(named('limit'), {}).map((v) => [v.label, v.value])).toEqual([
      ['minimum', 0],
      ['maximum', 51],
      ['type', 'abc'],
    ]);
    expect(invalidValues(named('state'), {})).toEqual([{ value: 'not-a-member', label: 'enum' }]);
    expect(invalidValues(named('since'), {})).toEqual([{ value: 'a'.repeat(9), label: 'maxLength' }]);
  });
});

describe('request cases', () => {
  const cases = requestCases(model, operation, 1);
  const find = (name: string) => cases.find((c) => c.name === name);

  it('starts from the required parameters at their examples', () => {
    expect(cases[0]?.parts.query).toEqual({ start: '2026-11-01' });
  });

  it('keeps the lower bound of an x-not-less-than pair when the upper one is set', () => {
    expect(find('end on (its example)')?.parts.query).toEqual({ start: '2026-11-01', end: '2026-11-03' });
  });

  it('sends each x- rule broken once, expecting the violation to name its field', () => {
    expect(find('end below start (x-not-less-than)')).toMatchObject({
      parts: { query: { start: '2026-11-08', end: '2026-11-03' } },
      expect: { kind: 'invalid', fields: ['end'] },
    });
    expect(find('since with ids (x-mutually-exclusive)')).toMatchObject({
      parts: { query: { since: 'abc', ids: [5] } },
      expect: { kind: 'invalid', fields: ['since', 'ids'] },
    });
    expect(find('start missing (required)')).toMatchObject({
      parts: { query: {} },
      expect: { kind: 'invalid', fields: ['start'] },
    });
  });

  it('varies a documented header like a query parameter: each enum value valid, one outside refused', () => {
    expect(find('X-Version at enum 2025-01-01')?.parts.headers).toEqual({ 'X-Version': '2025-01-01' });
    expect(find('X-Version breaking enum')).toMatchObject({
      parts: { headers: { 'X-Version': 'not-a-member' } },
      expect: { kind: 'invalid', fields: ['X-Version'] },
    });
  });

  it('sends the version header at a release date the spec does not describe as a valid request', () => {
    const undescribed = cases.find((c) => c.name.startsWith('X-Version at 1999-01-01'));
    expect(undescribed).toMatchObject({
      parts: { headers: { 'X-Version': '1999-01-01' } },
      expect: { kind: 'valid' },
    });
    expect(undescribed?.parts.query).toEqual({ start: '2026-11-01' });
  });
});
