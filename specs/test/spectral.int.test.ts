// Any tool reads our bundles: Spectral's `spectral:oas` ruleset (specs/.spectral.yaml, with the
// reason for anything relaxed) finds zero errors in the three bundled documents.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
// spec-model's one list of API names, from its source: spec-model depends on this package.
import { apiNames } from '../../packages/spec-model/src/api-names.js';

const run = promisify(execFile);
const specs = join(import.meta.dirname, '..');
const spectral = join(specs, '..', 'node_modules', '.bin', 'spectral');

interface SpectralResult {
  code: string;
  message: string;
  severity: number;
  path: string[];
  source: string;
}

describe('Spectral spectral:oas', () => {
  it('finds no error in the three bundles', async () => {
    const bundles = apiNames.map((api) => join(specs, 'dist', `${api}.openapi.json`));
    const { stdout } = await run(
      spectral,
      [
        'lint',
        ...bundles,
        '--ruleset',
        join(specs, '.spectral.yaml'),
        '--format',
        'json',
        '--fail-severity',
        'error',
        '--quiet',
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const results = JSON.parse(stdout) as SpectralResult[];
    const errors = results
      .filter((result) => result.severity === 0)
      .map((result) => `${result.source}: ${result.code} at ${result.path.join('.')}: ${result.message}`);
    expect(errors).toEqual([]);
    expect(Array.isArray(results)).toBe(true);
  }, 180_000);
});
