// The invalid bodies derived from the admin spec's body rules: every rule kind the spec states gets
// a case, and each case's body still conforms to the request schema and breaks its rule alone.
import { bodyRuleBreaches, bodyRuleKinds, bodyRulesOf, loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { bodyRuleCases, replaced } from './body-rule-cases.js';

const model = await loadSpec('admin');
const writes = model.operations.filter((operation) => operation.bodySchema !== undefined);
const cases = writes.flatMap((operation) =>
  bodyRuleCases(model, operation).map((testCase) => ({ operation, testCase })),
);

describe('body-rule cases of the admin API', () => {
  it('cover every rule kind the spec states on a request body', () => {
    expect(new Set(cases.map(({ testCase }) => testCase.name.split(' breaking ')[1]))).toEqual(
      new Set(bodyRuleKinds),
    );
  });

  it('each send a body that conforms to the request schema and breaks exactly its rule, naming the field', () => {
    expect(cases.length).toBeGreaterThanOrEqual(bodyRuleKinds.length);
    for (const { operation, testCase } of cases) {
      const schema = operation.bodySchema ?? {};
      expect(model.schemas().compile(schema)(testCase.body), testCase.name).toBe(true);
      const breaches = bodyRuleBreaches(bodyRulesOf(model.dereference(schema)), testCase.body);
      expect(
        breaches.map((breach) => breach.field),
        testCase.name,
      ).toEqual([testCase.field]);
    }
  });

  it('leave out a rule whose breaking value would break another rule too', () => {
    // shipping_rates_min raised past the Amount ceiling would also end the interval before it starts.
    expect(cases.map(({ testCase }) => testCase.name)).not.toContain(
      'request.shipping_rates/0/shipping_rates_min breaking x-decimal-maximum',
    );
  });
});

describe('replaced', () => {
  it('changes one value of a copy, through objects and arrays', () => {
    const document = { a: [{ b: 1 }, { b: 2 }] };
    expect(replaced(document, ['a', 1, 'b'], 3)).toEqual({ a: [{ b: 1 }, { b: 3 }] });
    expect(document).toEqual({ a: [{ b: 1 }, { b: 2 }] });
  });
});
