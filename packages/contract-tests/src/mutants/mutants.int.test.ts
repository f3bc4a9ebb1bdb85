// Measured strength of the conformance runner: each deliberately broken copy of our stateful mock
// (mutants.ts) fails at least one check, and one of the group of checks meant to catch it (for the
// query-meaning mutants, the very check: its operation and name, which passes on the unbroken mock).
// A mutant is run against the checks that can see it — those of the operations it touches, the
// sequences through them and the API-wide ones (the runner's `operations`, its `--operation`) —
// not the whole API's, which the catch-rate benchmark runs.
import { loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { localRunOptions, startLocalTarget } from '../conformance/local-target.js';
import { runConformance } from '../conformance/run-conformance.js';
import { mutants, operationsSeeing, startMutant } from './mutants.js';

describe('the conformance runner catches every mutant of the mock', () => {
  it.each(mutants.map((mutant) => [mutant.name, mutant] as const))(
    '%s',
    async (_name, mutant) => {
      const operations = operationsSeeing(mutant, await loadSpec(mutant.api));
      const target = await startMutant(mutant);
      try {
        const report = await runConformance({
          ...localRunOptions(mutant.api, target),
          ...(operations ? { operations } : {}),
        });
        const failed = report.results.filter((r) => r.status === 'failed');
        expect(failed.length).toBeGreaterThan(0);
        expect(failed.map((r) => r.group)).toContain(mutant.caughtBy);
        const { caughtIn } = mutant;
        if (caughtIn)
          expect(
            failed.filter(
              (r) =>
                r.group === mutant.caughtBy &&
                r.subject === caughtIn.subject &&
                r.name.startsWith(caughtIn.name),
            ),
          ).not.toEqual([]);
      } finally {
        await target.close();
      }
    },
    300_000,
  );
});

describe('the checks meant to catch the query-meaning mutants', () => {
  const aimed = mutants.filter((mutant) => mutant.caughtIn);
  it.each([...new Set(aimed.map((mutant) => mutant.api))])(
    'pass on the unbroken %s mock',
    async (api) => {
      const ofApi = aimed.filter((mutant) => mutant.api === api);
      const target = await startLocalTarget(api);
      try {
        const report = await runConformance({
          ...localRunOptions(api, target),
          spendRateLimit: false,
          operations: ofApi.map((mutant) => mutant.caughtIn?.subject ?? ''),
        });
        for (const { caughtBy, caughtIn } of ofApi) {
          const aimedAt = report.results.filter(
            (r) =>
              r.group === caughtBy && r.subject === caughtIn?.subject && r.name.startsWith(caughtIn.name),
          );
          expect(aimedAt.length).toBeGreaterThan(0);
          expect(aimedAt.filter((r) => r.status !== 'passed')).toEqual([]);
        }
      } finally {
        await target.close();
      }
    },
    300_000,
  );
});
