// The CommonJS entry of `@mall-api/mock-server/testing`, as jest in its default mode loads it: a
// CommonJS script run by a Node that cannot require() an ES module requires the package, starts the
// mocks (in their child process), gets a token through the OAuth flow, reads and writes through the
// control API, and closes; the mock process is gone afterwards. A clock function is refused.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageRoot = join(import.meta.dirname, '..', '..');

/** Runs a CommonJS script from the package's folder, require(esm) turned off. */
const commonjs = (script: string) =>
  run(process.execPath, ['--no-experimental-require-module', '-e', script], {
    cwd: packageRoot,
    timeout: 120_000,
  });

describe('require("@mall-api/mock-server/testing")', () => {
  it('starts the mocks in a child process that close() ends', { timeout: 150_000 }, async () => {
    const { stdout } = await commonjs(`
      const { startMock, ControlError } = require('@mall-api/mock-server/testing');
      (async () => {
        const mock = await startMock({ apis: ['admin'] });
        const { access_token } = await mock.token('cjsmall');
        const answer = await fetch(mock.mallUrl('admin', 'cjsmall') + '/api/v2/admin/categories?limit=2', {
          headers: { authorization: 'Bearer ' + access_token },
        });
        const { categories } = await answer.json();
        const journal = await mock.control.journal('cjsmall');
        const refused = await mock.control.addFault('cjsmall', { action: { kind: 'nope' } }).catch((e) => e);
        const pids = require('node:child_process').execFileSync('pgrep', ['-P', String(process.pid)]).toString().trim();
        await mock.close();
        console.log(JSON.stringify({
          status: answer.status,
          categories: categories.length,
          journal: journal.length,
          refused: refused instanceof ControlError,
          child: Number(pids),
        }));
      })();
    `);
    const outcome = JSON.parse(stdout) as { child: number };
    expect(outcome).toMatchObject({ status: 200, categories: 2, refused: true });
    expect((outcome as unknown as { journal: number }).journal).toBeGreaterThan(0);
    expect(() => process.kill(outcome.child, 0)).toThrow();
  });

  it('refuses a clock function, which cannot reach the child process', async () => {
    const { stdout } = await commonjs(`
      const { startMock } = require('@mall-api/mock-server/testing');
      startMock({ clock: () => 0 }).catch((error) => console.log(error.name));
    `);
    expect(stdout.trim()).toBe('TypeError');
  });
});
