import type { JournalEntry } from '@mall-api/mall-state';
import { loadSpecs } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { requestRulesOf } from '../validation/request-rules.js';
import { coverageJunit, coverageMarkdown } from './coverage-formats.js';
import { coverageReport, documentedResponse } from './coverage-report.js';

const specs = await loadSpecs();

let sequence = 0;
/** A journal entry of the admin API. */
const entry = (
  operationId: string | null,
  status: number,
  refusedBy?: readonly string[],
  api = 'admin',
): JournalEntry => ({
  sequence: ++sequence,
  receivedAt: '2026-01-01T00:00:00.000Z',
  api,
  method: 'GET',
  path: '/api/v2/admin/categories',
  operationId,
  query: {},
  body: null,
  status,
  answeredBy: refusedBy ? 'validate-request' : 'answer',
  durationMs: 1,
  ...(refusedBy ? { refusedBy } : {}),
});

const operationIds = ['listCategories', 'createCategory', 'countCategories'];

describe('the coverage of crafted journal entries', () => {
  it('lists every operation of the scope, each with the calls routed to it', () => {
    const report = coverageReport(
      specs,
      [entry('listCategories', 200), entry('listCategories', 200), entry('createCategory', 201)],
      { api: 'admin', operationIds },
    );
    expect(
      Object.fromEntries(report.operations.items.map(({ operationId, calls }) => [operationId, calls])),
    ).toEqual({
      listCategories: 2,
      createCategory: 1,
      countCategories: 0,
    });
    expect(report.operations).toMatchObject({ documented: 3, exercised: 2, percent: 66.7 });
    expect(report.requests).toBe(3);
  });

  it('counts an answer under the response its status falls under, exactly, by class or as default', () => {
    const list = specs.admin.operation('listCategories');
    expect(list && documentedResponse(list, 200)).toBe('200');
    expect(list && documentedResponse(list, 302)).toBeUndefined();
    const report = coverageReport(specs, [entry('listCategories', 200), entry('listCategories', 403)], {
      api: 'admin',
      operationIds: ['listCategories'],
    });
    const answered = report.responses.items.filter((item) => item.answers > 0).map((item) => item.status);
    expect(answered).toEqual(['200', '403']);
    expect(report.responses.documented).toBe(list?.responseCodes.length);
  });

  it('lists a status no documented response covers apart', () => {
    const report = coverageReport(specs, [entry('listCategories', 302)], { api: 'admin' });
    expect(report.undocumented).toEqual([
      { api: 'admin', operationId: 'listCategories', status: 302, answers: 1 },
    ]);
    expect(report.responses.exercised).toBe(0);
  });

  it('counts a rule exercised when it refused a call of its operation; the rate limit for every call', () => {
    const report = coverageReport(
      specs,
      [
        entry('listCategories', 403, ['scope']),
        entry('createCategory', 422, ['request-schema']),
        entry('countCategories', 429, ['rate-limit']),
      ],
      { api: 'admin', operationIds },
    );
    const exercised = report.rules.items
      .filter((item) => item.refusals > 0)
      .map(({ operationId, rule }) => `${operationId} ${rule}`);
    expect(exercised).toEqual(['listCategories scope', 'createCategory request-schema', 'null rate-limit']);
    expect(
      report.rules.items.find((item) => item.operationId === 'listCategories' && item.rule === 'credentials')
        ?.refusals,
    ).toBe(0);
  });

  it('takes every rule the spec states, the rule extensions by name', () => {
    const rules = requestRulesOf(specs.collection).map(({ operationId, rule }) => `${operationId} ${rule}`);
    expect(rules).toContain('listProducts x-not-less-than:price_max');
    expect(rules).toContain('null rate-limit');
    const report = coverageReport(
      specs,
      [entry('listProducts', 422, ['x-not-less-than:price_max'], 'collection')],
      {
        api: 'collection',
        rules: ['x-not-less-than:price_max'],
      },
    );
    expect(report.rules.items.map(({ operationId, refusals }) => [operationId, refusals])).toContainEqual([
      'listProducts',
      1,
    ]);
    expect(report.rules.items.every((item) => item.rule === 'x-not-less-than:price_max')).toBe(true);
  });

  it('passes when every minimum is reached and fails when one is not', () => {
    const entries = [entry('listCategories', 200)];
    const scope = { api: 'admin' as const, operationIds: ['listCategories', 'createCategory'] };
    const half = coverageReport(specs, entries, { ...scope, minimum: { operations: 50 } });
    expect(half.thresholds).toEqual([{ measure: 'operations', minimum: 50, percent: 50, passed: true }]);
    expect(half.passed).toBe(true);
    const more = coverageReport(specs, entries, { ...scope, minimum: { operations: 80, rules: 0 } });
    expect(more.passed).toBe(false);
    expect(more.thresholds.map((threshold) => threshold.passed)).toEqual([false, true]);
  });

  it('counts nothing of another API or of operations outside the scope', () => {
    const report = coverageReport(specs, [entry('listProducts', 200, undefined, 'collection')], {
      api: 'admin',
    });
    expect(report.requests).toBe(0);
    expect(report.operations.exercised).toBe(0);
  });
});

describe('the formats of a report', () => {
  const report = coverageReport(
    specs,
    [entry('listCategories', 200), entry('createCategory', 422, ['request-schema'])],
    {
      malls: ['qa1'],
      api: 'admin',
      operationIds: ['listCategories', 'createCategory'],
      minimum: { operations: 100, responses: 90 },
    },
  );

  it('Markdown gives the summary, the thresholds and each item with a mark', () => {
    const markdown = coverageMarkdown(report);
    expect(markdown).toContain('| Operations | 2 | 2 | 100% |');
    expect(markdown).toContain('| operations | 100% | 100% | passed |');
    expect(markdown).toMatch(/\| responses \| 90% \| [\d.]+% \| FAILED \|/);
    expect(markdown).toContain('| ✓ | admin createCategory 422 | 1 |');
    expect(markdown).toContain('| ✗ | admin createCategory 201 | 0 |');
  });

  it('JUnit gives a failing case per missed minimum and skips what was not exercised', () => {
    const junit = coverageJunit(report);
    expect(junit).toMatch(/<testsuite name="coverage.thresholds" tests="2" failures="1" skipped="0">/);
    expect(junit).toContain(
      '<testcase classname="coverage.thresholds" name="responses coverage at least 90%"><failure',
    );
    expect(junit).toContain(
      '<testcase classname="coverage.responses" name="admin createCategory 201"><skipped message="no answers"/></testcase>',
    );
    expect(junit).toContain(
      '<testcase classname="coverage.operations" name="admin listCategories (GET /api/v2/admin/categories)"/>',
    );
  });
});
