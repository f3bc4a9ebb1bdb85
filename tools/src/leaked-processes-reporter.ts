// Vitest reporter that fails the run when a test left a process running. The root config marks
// the run with MALL_API_TEST_RUN in its environment, which every process a test starts inherits;
// at the end of the run any process still carrying the mark, other than Vitest itself and its
// direct children (its forked workers and build services: tests run inside the workers, so
// what a test starts is never a direct child of the main process), was left behind. It gets a grace period to finish exiting, then it is named, killed,
// and the run's exit code is 1. Linux only (it reads /proc); elsewhere it checks nothing and
// says so.
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { Reporter } from 'vitest/node';

/** The environment variable that marks this run's processes. */
export const testRunMark = 'MALL_API_TEST_RUN';

/** How long leftover processes get to finish exiting before they count as leaked. */
const graceMs = 10_000;

interface Leftover {
  pid: number;
  command: string;
}

async function readOrEmpty(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return ''; // the process ended while we looked
  }
}

/** The parent process id in a `/proc/<pid>/stat` line (the field after the name in parentheses). */
export function parentOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The processes other than Vitest's own whose environment carries `mark`. */
async function marked(mark: string): Promise<Leftover[]> {
  const found: Leftover[] = [];
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const environment = (await readOrEmpty(`/proc/${pid}/environ`)).split('\0');
    if (!environment.includes(mark)) continue;
    if (parentOf(await readOrEmpty(`/proc/${pid}/stat`)) === process.pid) continue;
    const command = (await readOrEmpty(`/proc/${pid}/cmdline`)).split('\0').join(' ').trim();
    if (command === '') continue;
    found.push({ pid, command });
  }
  return found;
}

/** What the check looks for; Vitest passes nothing, so the run's own mark and grace apply. */
export interface LeakCheckOptions {
  /** The mark's value (default: this run's, from the environment). */
  value?: string;
  /** How long leftovers get to exit, in milliseconds. */
  graceMs?: number;
}

export default class LeakedProcessesReporter implements Reporter {
  readonly #options: LeakCheckOptions;

  constructor(options: LeakCheckOptions = {}) {
    this.#options = options;
  }

  async onTestRunEnd(): Promise<void> {
    const value = this.#options.value ?? process.env[testRunMark];
    if (process.platform !== 'linux' || !value) {
      process.stdout.write('\nleaked processes: not checked (needs Linux and the run mark)\n');
      return;
    }
    const mark = `${testRunMark}=${value}`;
    const deadline = Date.now() + (this.#options.graceMs ?? graceMs);
    let left = await marked(mark);
    while (left.length > 0 && Date.now() < deadline) {
      await delay(250);
      left = await marked(mark);
    }
    if (left.length === 0) return;
    process.exitCode = 1;
    const lines = left.map(({ pid, command }) => `  ${pid} ${command.slice(0, 200)}`);
    process.stdout.write(
      `\nleaked processes: tests left ${left.length} running (killed now):\n${lines.join('\n')}\n`,
    );
    for (const { pid } of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
