// No file circle anywhere in the repository: no module reaches itself through its imports, type-only
// imports included (a circle of types still ties two files together for the reader and the build).
// The import graph is dpdm's, over every source file outside dependencies and build output.
import { join } from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/published-packages.mjs';

const sources = '{packages,tools,docs,bench,specs}/**/*.{ts,mts,cts,tsx,js,mjs,cjs}';
const fixture = 'tools/test/fixtures/import-circle';

/** The import circles among the files `entries` matches, type-only imports included. */
async function circlesOf(entries: string, exclude: RegExp) {
  const tree = await parseDependencyTree(entries, { context: repoRoot, transform: false, exclude });
  return { files: Object.keys(tree), circles: parseCircular(tree) };
}

describe('import circles', { timeout: 120_000 }, () => {
  it('are found, type-only ones too (the fixture is one)', async () => {
    const { circles } = await circlesOf(`${fixture}/*.ts`, /node_modules/);
    expect(circles.map((circle) => [...circle].sort())).toEqual([
      [join(fixture, 'a.ts'), join(fixture, 'b.ts')],
    ]);
  });

  it('are none in the repository', async () => {
    const { files, circles } = await circlesOf(sources, new RegExp(`node_modules|/dist/|${fixture}/`));
    expect(files).toContain('packages/mock-server/src/cli.ts');
    expect(files).toContain('tools/src/generate.mjs');
    expect(circles).toEqual([]);
  });
});
