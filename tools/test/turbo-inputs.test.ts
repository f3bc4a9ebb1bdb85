// `npm run build` twice after a fresh clone is a full cache hit the second time. turbo hashes every
// task before any runs, so a task whose inputs name another task's output (a bundle, a build, the
// generated sources) hashes a missing file on the first run and the file on the second, and re-runs
// with everything after it. What a task takes from a task it depends on reaches its hash through
// `dependsOn`; its inputs list only sources. This checks turbo.json for that mistake.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, rootManifest } from '../src/published-packages.mjs';

interface Task {
  readonly inputs?: readonly string[];
  readonly outputs?: readonly string[];
}

const turbo = JSON.parse(readFileSync(join(repoRoot, 'turbo.json'), 'utf8')) as {
  tasks: Record<string, Task>;
};
const root = '$TURBO_ROOT$/';

/** A glob of repository paths as a regular expression matching the path and anything under it. */
const under = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/\/\*\*$/, '')
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replaceAll('*', '[^/]+')}(/|$)`,
  );

/** Every task output as repository paths: a package-relative output stands for each workspace's. */
const outputs = Object.values(turbo.tasks)
  .flatMap((task) => task.outputs ?? [])
  .flatMap((output) =>
    output.startsWith(root)
      ? [output.slice(root.length)]
      : rootManifest.workspaces.map((workspace) => `${workspace}/${output}`),
  )
  .map(under);

/** A task's positive inputs as repository paths (a package-relative one, in every workspace). */
const inputsOf = (task: Task) =>
  (task.inputs ?? [])
    .filter((input) => !input.startsWith('!') && input !== '$TURBO_DEFAULT$')
    .flatMap((input) =>
      input.startsWith(root)
        ? [input.slice(root.length)]
        : rootManifest.workspaces.map((workspace) => `${workspace}/${input}`),
    );

describe('turbo.json', () => {
  it('knows the outputs it checks against (dist and the generated sources)', () => {
    expect(outputs.some((output) => output.test('specs/dist/admin.openapi.json'))).toBe(true);
    expect(outputs.some((output) => output.test('specs/types/admin.d.cts'))).toBe(true);
    expect(outputs.some((output) => output.test('packages/admin-client/src/generated/list-keys.ts'))).toBe(
      true,
    );
  });

  it.each(Object.entries(turbo.tasks))('%s hashes no output of another task', (_, task) => {
    const built = inputsOf(task).filter((input) => outputs.some((output) => output.test(input)));
    expect(built).toEqual([]);
  });
});
