// Vitest reporter that lists the run's slowest test files (wall time of each file, setup
// included), so the files that make CI wait are named in every log. It reports; it never
// changes results.
import type { Reporter, TestModule } from 'vitest/node';

/** How many files the list names. */
const listed = 20;

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((module) => ({ file: module.relativeModuleId, ms: module.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, listed);
    if (timed.length === 0) return;
    const lines = timed.map(({ file, ms }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
    process.stdout.write(`\nslowest test files:\n${lines.join('\n')}\n`);
  }
}
