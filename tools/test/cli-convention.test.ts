// The three commands users install share one convention (@mall-api/auth/command-line): `--help`
// prints the usage and exits 0, `--version` prints the package's version, an unknown option is
// named with the nearest known one and exits 2, and no mistake prints a stack trace.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/published-packages.mjs';

const run = promisify(execFile);

const commands = [
  { bin: 'mall-api-mock', directory: 'mock-server', typo: ['--prot', '5000'], meant: '--port' },
  { bin: 'mall-api-auth', directory: 'auth', typo: ['login', '--mal', 'demomall'], meant: '--mall' },
  { bin: 'mall-api-contract', directory: 'contract-tests', typo: ['--bsae-url', 'x'], meant: '--base-url' },
  {
    bin: 'mall-api-contract',
    directory: 'contract-tests',
    subcommand: 'conformance',
    typo: ['--seeed', '2'],
    meant: '--seed',
  },
];

/** Runs a command with `args`; its exit code and output, whether it failed or not. */
async function call(bin: string, args: string[]) {
  const script = join(repoRoot, 'node_modules', '.bin', bin);
  return run(process.execPath, [script, ...args], { timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe.each(commands)('$bin $subcommand', ({ bin, directory, subcommand, typo, meant }) => {
  const prefix = subcommand ? [subcommand] : [];
  const command = [bin, ...prefix].join(' ');

  it('prints its usage with --help and exits 0', async () => {
    const { code, stdout } = await call(bin, [...prefix, '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain(`Usage: ${command}`);
    expect(stdout).toContain('--version');
  });

  it("prints its package's version with --version", async () => {
    const { version } = JSON.parse(
      readFileSync(join(repoRoot, 'packages', directory, 'package.json'), 'utf8'),
    ) as { version: string };
    const { code, stdout } = await call(bin, [...prefix, '--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(version);
  });

  it('names an unknown option with the nearest known one, exits 2, and prints no stack trace', async () => {
    const { code, stdout, stderr } = await call(bin, [...prefix, ...typo]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${bin}: unknown option ${typo.find((arg) => arg.startsWith('--'))}`);
    expect(stderr).toContain(`(did you mean ${meant}?)`);
    expect(stderr).toContain(`Run ${command} --help`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
