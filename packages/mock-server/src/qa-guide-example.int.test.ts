// The vitest examples of the QA guide (docs/guides/qa-testing.md) run as written: the block after
// each marker (`qa-vitest-example`, `qa-coverage-example`, `qa-metrics-example`) is written to a
// scratch folder inside the workspace and run by a vitest child process, which must pass every
// test in it.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** The examples the guide marks, and how many tests each has. */
const examples: readonly (readonly [marker: string, tests: number])[] = [
  ['qa-vitest-example', 3],
  ['qa-coverage-example', 2],
  ['qa-metrics-example', 1],
];

it.each(examples)(
  'the QA guide’s %s passes against the mocks',
  async (marker, tests) => {
    const guide = readFileSync(join(root, 'docs', 'guides', 'qa-testing.md'), 'utf8');
    const block = new RegExp(`<!-- ${marker} -->\\s*\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(guide)?.[1];
    expect(block).toBeDefined();
    const scratch = join(root, 'packages', 'mock-server', `.guide-example-${marker}`);
    mkdirSync(scratch, { recursive: true });
    writeFileSync(join(scratch, 'qa-guide.test.ts'), block as string);
    // Its own config, so the child runs only the example and not the repository's projects.
    writeFileSync(
      join(scratch, 'vitest.config.mjs'),
      "export default { test: { include: ['*.test.ts'] } };\n",
    );
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          join(root, 'node_modules', 'vitest', 'vitest.mjs'),
          'run',
          '--root',
          scratch,
          '--config',
          'vitest.config.mjs',
        ],
        { cwd: root, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } },
      );
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the child's colour codes are stripped
      expect(stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(
        new RegExp(`Tests\\s+${tests} passed \\(${tests}\\)`),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  120_000,
);
