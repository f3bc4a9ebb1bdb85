// Timeouts and a caller's signal end every call even when garbage collections run while it waits:
// a child process (`node --expose-gc`, `test/hang-after-gc.mjs`) runs a server that never answers
// and 20 concurrent calls of the built collection client while a full collection is forced every
// 10 ms. Each call must end the way its settings say, within a tolerance of when it should.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const child = join(import.meta.dirname, '..', 'test', 'hang-after-gc.mjs');
/**
 * How late a call may end on a loaded machine (two cores shared with other work, a full collection
 * every 10 ms); a lost abort leaves the call pending until the child gives up after 10 s.
 */
const toleranceMs = 2_000;

interface Outcome {
  readonly ended: string;
  readonly afterMs: number | undefined;
}

async function outcomesOf(scenario: string): Promise<Outcome[]> {
  const { stdout } = await run(process.execPath, ['--expose-gc', child, scenario], {
    cwd: join(import.meta.dirname, '..'),
    timeout: 30_000,
  });
  return (JSON.parse(stdout) as { outcomes: Outcome[] }).outcomes;
}

describe('calls against a server that never answers, with forced garbage collections', () => {
  it.each([
    // 3 attempts of 250 ms, 10 to 20 ms of backoff between them.
    ['timeout', 'timeout', 750],
    ['signal', 'caller gave up', 400],
    // Attempts of 150 ms keep timing out and are retried until the caller aborts at 700 ms.
    ['signal-in-retry', 'caller gave up', 700],
  ])(
    '%s: every call ends with %s, soon after %i ms',
    async (scenario, ending, dueMs) => {
      const outcomes = await outcomesOf(scenario);
      expect(outcomes).toHaveLength(20);
      for (const { ended, afterMs } of outcomes) {
        expect(ended).toBe(ending);
        expect(afterMs).toBeGreaterThanOrEqual(dueMs - 1);
        expect(afterMs).toBeLessThanOrEqual(dueMs + toleranceMs);
      }
    },
    60_000,
  );
});
