// The run's own reporters: a process a test leaves running fails the run and is killed, one that
// exits within the grace period does not; the slowest files are listed slowest first.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import LeakedProcessesReporter, { parentOf, testRunMark } from '../src/leaked-processes-reporter.js';
import SlowestFilesReporter from '../src/slowest-files-reporter.js';

/** Whether `pid` runs (a killed orphan may linger as a zombie until it is reaped). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('leaked processes', () => {
  const exitCode = process.exitCode;
  afterEach(() => {
    process.exitCode = exitCode;
    vi.restoreAllMocks();
  });

  it('reads the parent id after a process name that holds spaces and parentheses', () => {
    expect(parentOf('42 (node (x) y) S 17 42 42 0 -1')).toBe(17);
  });

  it('names, kills and fails the run for a marked process left running', async () => {
    const value = `leak-${process.pid}-${Date.now()}`;
    // As a leak happens: the shell that started it is gone, so the sleep is nobody's child here.
    const shell = spawn('sh', ['-c', 'sleep 60 >/dev/null 2>&1 & echo $!'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, [testRunMark]: value },
    });
    let out = '';
    shell.stdout.on('data', (chunk) => {
      out += chunk;
    });
    await once(shell, 'exit');
    const pid = Number(out.trim());
    expect(alive(pid)).toBe(true);
    const written = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await new LeakedProcessesReporter({ value, graceMs: 0 }).onTestRunEnd();
    expect(process.exitCode).toBe(1);
    expect(written.mock.calls.join('')).toContain(`${pid} sleep 60`);
    await vi.waitFor(() => expect(alive(pid)).toBe(false));
  });

  it('lets a marked process that exits within the grace period go', async () => {
    const value = `grace-${process.pid}-${Date.now()}`;
    const child = spawn('sleep', ['0.2'], { stdio: 'ignore', env: { ...process.env, [testRunMark]: value } });
    process.exitCode = undefined;
    await new LeakedProcessesReporter({ value, graceMs: 5_000 }).onTestRunEnd();
    expect(process.exitCode).toBeUndefined();
    const [code] = child.exitCode === null ? await once(child, 'exit') : [child.exitCode];
    expect(code).toBe(0);
  });
});

describe('slowest files', () => {
  it('lists the files slowest first', () => {
    const module = (relativeModuleId: string, duration: number) =>
      ({ relativeModuleId, diagnostic: () => ({ duration }) }) as unknown as TestModule;
    const written = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    new SlowestFilesReporter().onTestRunEnd([module('a.test.ts', 1_000), module('b.test.ts', 3_000)]);
    const text = written.mock.calls.join('');
    written.mockRestore();
    expect(text.indexOf('b.test.ts')).toBeLessThan(text.indexOf('a.test.ts'));
    expect(text).toContain('3.0 s  b.test.ts');
  });
});
