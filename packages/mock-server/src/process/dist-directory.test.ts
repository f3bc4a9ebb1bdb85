// The compiled output folder as the tests see it (run from src/): the package's own dist/, where
// the build wrote the prepared responses, so mocks started by tests answer from them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distDirectory } from './dist-directory.js';

describe('distDirectory', () => {
  it("is the package's dist/ when run from src/", () => {
    expect(distDirectory).toBe(join(import.meta.dirname, '..', '..', 'dist'));
    expect(existsSync(join(distDirectory, 'process', 'dist-directory.js'))).toBe(true);
  });
});
