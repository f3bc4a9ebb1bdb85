// The meaning of the body rule extensions: where each rule sits in a schema, what breaks it, and
// a breaking value made from a valid one that breaks that rule.
import { describe, expect, it } from 'vitest';
import { type BodyRuleKind, bodyFieldName, bodyRuleBreaches, bodyRulesOf, valuesAt } from './body-rules.js';
import type { Json } from './json-document.js';

const amount = { type: 'string', 'x-decimal-maximum': { maximum: 1000 } };
const schema = {
  type: 'object',
  properties: {
    request: {
      type: 'object',
      properties: {
        price: amount,
        tags: {
          type: 'array',
          items: { type: 'string', maxLength: 20 },
          'x-joined-max-length': { maximum: 30 },
        },
        options: {
          type: 'array',
          items: { type: 'object' },
          'x-max-value-combinations': { maximum: 10, values: 'value' },
        },
        ids: { type: 'array', items: { type: 'integer' } },
        pinned: { type: 'array', items: { type: 'integer' }, 'x-subset-of': { field: 'ids' } },
        period: {
          type: 'object',
          properties: {
            minimum: { type: 'integer', default: 1 },
            maximum: { type: 'integer', 'x-not-less-than': { field: 'minimum' } },
          },
        },
        rates: {
          type: 'array',
          items: {
            type: 'object',
            properties: { min: amount, max: { ...amount, 'x-not-less-than': { field: 'min' } } },
          },
        },
      },
    },
  },
};
const valid: Json = {
  request: {
    price: '10.00',
    tags: ['a', 'b'],
    options: [
      { name: 'Color', value: ['red', 'blue'] },
      { name: 'Size', value: ['S', 'M'] },
    ],
    ids: [3, 4],
    pinned: [4],
    period: { minimum: 1, maximum: 3 },
    rates: [{ min: '0.00', max: '100.00' }],
  },
};
const rules = bodyRulesOf(schema);
const ruleOf = (kind: BodyRuleKind, at: string) => {
  const found = rules.find((rule) => rule.kind === kind && rule.at.join('/') === at);
  if (!found) throw new Error(`no ${kind} at ${at}`);
  return found;
};

describe('body rules', () => {
  it('finds each rule where it sits, x-not-less-than on the object holding both members', () => {
    expect(rules.map((rule) => `${rule.kind} ${rule.at.join('/')}`).sort()).toEqual([
      'x-decimal-maximum request/price',
      'x-decimal-maximum request/rates/*/max',
      'x-decimal-maximum request/rates/*/min',
      'x-joined-max-length request/tags',
      'x-max-value-combinations request/options',
      'x-not-less-than request/period',
      'x-not-less-than request/rates/*',
      'x-subset-of request/pinned',
    ]);
  });

  it('finds no breach in a body that keeps every rule', () => {
    expect(bodyRuleBreaches(rules, valid)).toEqual([]);
  });

  it.each([
    ['x-decimal-maximum', 'request/price', 'request.price'],
    ['x-joined-max-length', 'request/tags', 'request.tags'],
    ['x-max-value-combinations', 'request/options', 'request.options'],
    ['x-subset-of', 'request/pinned', 'request.pinned/1'],
    ['x-not-less-than', 'request/period', 'request.period/maximum'],
    ['x-not-less-than', 'request/rates/*', 'request.rates/0/max'],
  ] as const)(
    '%s at %s: the breaking value made from a valid one breaks it, naming %s',
    (kind, at, field) => {
      const rule = ruleOf(kind, at);
      const [located] = valuesAt(valid, rule.at);
      if (!located) throw new Error('the valid body has no value there');
      const broken = rule.broken(located.value as Json, located.parent as Json);
      expect(broken).toBeDefined();
      expect(rule.breaches(located.value, located.parent)).toEqual([]);
      const breaches = rule.breaches(broken, located.parent);
      expect(breaches).toHaveLength(1);
      expect(bodyFieldName([...located.path, ...(breaches[0]?.below ?? [])])).toBe(field);
    },
  );

  it('reads an omitted member of an x-not-less-than pair as its default', () => {
    const period = ruleOf('x-not-less-than', 'request/period');
    expect(period.breaches({ maximum: 0 }, undefined)).toEqual([
      { below: ['maximum'], message: 'must not be less than minimum' },
    ]);
    expect(period.breaches({ maximum: 1 }, undefined)).toEqual([]);
  });

  it('makes joined strings just longer than the maximum, each item within its own maxLength', () => {
    const broken = ruleOf('x-joined-max-length', 'request/tags').broken(['a'], null) as string[];
    expect(broken.join(',').length).toBeGreaterThan(30);
    expect(broken.every((item) => item.length <= 20)).toBe(true);
  });
});
