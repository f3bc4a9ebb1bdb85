// The vitest examples of the QA guide (docs/guides/qa-testing.md) run as written: each block after
// a `qa-vitest-example` marker is written to a scratch folder inside the workspace as a test file of
// its own and run by one vitest child process, which must pass every test in them.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..', '..');

it('the QA guide’s vitest examples pass against the mocks', async () => {
  const guide = readFileSync(join(root, 'docs', 'guides', 'qa-testing.md'), 'utf8');
  const blocks = [...guide.matchAll(/<!-- qa-vitest-example -->\s*```ts\n([\s\S]*?)```/g)].map(
    (match) => match[1] ?? '',
  );
  expect(blocks.length).toBeGreaterThan(1);
  // Every test the examples declare (`it(` at the start of a line) must pass.
  const tests = blocks.join('\n').match(/^it\(/gm)?.length ?? 0;
  const scratch = join(root, 'packages', 'mock-server', '.guide-example');
  mkdirSync(scratch, { recursive: true });
  blocks.forEach((block, index) => {
    writeFileSync(join(scratch, `qa-guide-${index + 1}.test.ts`), block);
  });
  // Its own config, so the child runs only the examples and not the repository's projects.
  writeFileSync(join(scratch, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
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
        '--maxWorkers=1',
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
}, 120_000);
