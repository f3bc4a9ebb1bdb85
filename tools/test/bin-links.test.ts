// The commands the README tells users to run with `npx` work after `npm ci && npm run build`:
// every `bin` of a workspace package is a committed, executable file (npm links a bin into
// node_modules/.bin only if its file exists at install time, before dist/ is built, so the bins
// are small shims that import the built CLI), it is linked there, and the CLIs answer --help
// through that link.
import { execFile } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** Every bin of the workspace packages: its command name and the file it points at. */
function workspaceBins(): [string, string][] {
  const packagesDir = join(repoRoot, 'packages');
  return readdirSync(packagesDir).flatMap((name) => {
    const manifest = JSON.parse(readFileSync(join(packagesDir, name, 'package.json'), 'utf8')) as {
      bin?: Record<string, string>;
    };
    return Object.entries(manifest.bin ?? {}).map(([command, target]): [string, string] => [
      command,
      join(packagesDir, name, target),
    ]);
  });
}

describe('workspace commands', () => {
  it('include the three the README documents', () => {
    expect(workspaceBins().map(([command]) => command)).toEqual(
      expect.arrayContaining(['mall-api-mock', 'mall-api-auth', 'mall-api-contract']),
    );
  });

  it.each(workspaceBins())('%s is linked in node_modules/.bin to an executable file', (command, target) => {
    const link = join(repoRoot, 'node_modules', '.bin', command);
    expect(realpathSync(link)).toBe(realpathSync(target));
    expect(() => accessSync(target, constants.X_OK)).not.toThrow();
  });

  it.each(['mall-api-mock', 'mall-api-auth'])(
    '%s --help runs through its link and prints its usage',
    async (command) => {
      const { stdout } = await run(join(repoRoot, 'node_modules', '.bin', command), ['--help']);
      expect(stdout).toMatch(new RegExp(`^Usage: ${command}`));
    },
  );
});
