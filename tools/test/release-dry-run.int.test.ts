// `npm run release` is a dry run here: after the breaking-change check and the changelog check it
// shows what changesets would version and what `npm publish --dry-run` would publish for every
// public package, and publishes nothing.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('npm run release (dry run)', () => {
  it('checks, lists what would be released and published, and publishes nothing', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(repoRoot, 'tools', 'src', 'release.mjs')],
      { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 },
    );
    const output = `${stdout}${stderr}`;
    expect(output).toMatch(
      /admin: description \S+ \(API versions: [^)]+\) against released description \S+: (no breaking change|\d+ breaking changes \(declared in )/,
    );
    expect(output).toMatch(
      /collection \S+(: released| is not released yet: npm run release:version will release it)/,
    );
    expect(output).toContain('+ @mall-api/contract-tests@');
    expect(output).toContain('+ @mall-api/admin-client@');
    expect(output).toContain('(dry-run)');
    expect(stdout.trim().split('\n').at(-1)).toBe(
      'dry run: nothing was published (npm run release -- --publish publishes)',
    );
  }, 300_000);
});
