// The release scripts (JavaScript with JSDoc types) type-check under tsc with checkJs and the
// repository's strict settings (tools/tsconfig.release.json). Run as a test, after the build, because they
// read @mall-api/spec-model's built types.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

it('the release scripts type-check', async () => {
  const tools = join(import.meta.dirname, '..');
  const tsc = join(tools, '..', 'node_modules', 'typescript', 'bin', 'tsc');
  const { stdout } = await promisify(execFile)(process.execPath, [
    tsc,
    '-p',
    join(tools, 'tsconfig.release.json'),
  ]);
  expect(stdout).toBe('');
}, 120_000);
