// `npm run release` is a dry run here: after the breaking-change check and the changelog check it
// shows what changesets would version and what `npm publish --dry-run` would publish for every
// public package, and publishes nothing. The breaking-change check alone (`npm run check:breaking`)
// passes on the repository too; both runs share Optic's comparisons (node_modules/.cache).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');
const checker = join(repoRoot, 'tools', 'src', 'check-breaking.mjs');
const run = promisify(execFile);

describe('npm run release (dry run)', () => {
  it('checks, lists what would be released and published, and publishes nothing', async () => {
    const { stdout, stderr } = await run(process.execPath, [join(repoRoot, 'tools', 'src', 'release.mjs')], {
      cwd: repoRoot,
      maxBuffer: 64 * 1024 * 1024,
    });
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

describe('npm run check:breaking', () => {
  it('passes on the repository: every spec is compatible with its last release', async () => {
    const { stdout } = await run(process.execPath, [checker], { cwd: repoRoot });
    // One summary line per API: no breaking change, or breaks declared by a major version's notes.
    const summaries = stdout
      .split('\n')
      .filter((line) =>
        /^\w+: description \S+ \(API versions: [^)]+\) against released description \S+: /.test(line),
      );
    expect(summaries).toHaveLength(3);
    // The admin API's date version is named apart from the revision of its description.
    expect(summaries.find((line) => line.startsWith('admin:'))).toMatch(
      /^admin: description \d+\.\d+\.\d+ \(API versions: 2020-09-01\) against/,
    );
    for (const line of summaries)
      expect(line).toMatch(/: (no breaking change|\d+ breaking changes? \(declared in )/);
  }, 120_000);
});
