// Measured strength of the conformance runner: each deliberately broken copy of our stateful mock
// (mutants.ts) fails at least one check, and one of the group of checks meant to catch it.
import { describe, expect, it } from 'vitest';
import { localRunOptions } from '../conformance/local-target.js';
import { runConformance } from '../conformance/run-conformance.js';
import { mutants, startMutant } from './mutants.js';

describe('the conformance runner catches every mutant of the mock', () => {
  it.each(mutants.map((mutant) => [mutant.name, mutant] as const))(
    '%s',
    async (_name, mutant) => {
      const target = await startMutant(mutant);
      try {
        const report = await runConformance(localRunOptions(mutant.api, target));
        const failed = report.results.filter((r) => r.status === 'failed');
        expect(failed.length).toBeGreaterThan(0);
        expect(failed.map((r) => r.group)).toContain(mutant.caughtBy);
      } finally {
        await target.close();
      }
    },
    120_000,
  );
});
