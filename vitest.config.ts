// Root test configuration: one vitest run covers every workspace as a named project; small
// reporters list the slowest files, fail the run on processes tests left running, and print the
// plain "N passed, N failed" closing line CI reads.
// MALL_API_TESTS=fast (`npm run test:fast`) leaves out the long integration tests, `*.int.test.ts`,
// and the docs site's pages in Chromium, `*.browser.test.ts`.
// The run marks its environment so that a process a test leaves running is found at the end.
// Files run one more at a time than the machine has cores (vitest's default is one fewer, a single
// file at a time on two cores): many files spend most of their time waiting on child processes,
// npm installs and servers, and a spare worker keeps the cores busy meanwhile. The longest files
// start first, across projects (tools/src/longest-first-sequencer.ts), so none runs alone at the end.
// The clients' type tests (`*.test-d.ts`) are checked by each client's `typecheck` (tsc over its
// tsconfig.test.json, which includes them), which `npm test` runs through turbo before vitest; vitest
// does not run tsc over them a second time.
// The unit files of the packages that start sandboxes, mocks and clients share their worker's
// modules (`isolate: false`): each such file read the specs, compiled their schemas and loaded the
// servers' modules again, most of its time. They keep no state between files (no module mocks, no
// changed environment; each closes what it starts). Their integration files stay isolated, in the
// project `<name>-int`.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testRunMark } from './tools/src/leaked-processes-reporter.ts';
import LongestFirstSequencer from './tools/src/longest-first-sequencer.ts';

process.env[testRunMark] ??= String(process.pid);

const skipped = ['**/node_modules/**', '**/dist/**'];
if (process.env.MALL_API_TESTS === 'fast') skipped.push('**/*.int.test.ts', '**/*.browser.test.ts');

// Project roots are absolute: a package's own `npm test` runs vitest from the package's folder.
const project = (name: string, root: string, extra: Record<string, unknown> = {}) => ({
  extends: true,
  test: {
    name,
    root: fileURLToPath(new URL(root, import.meta.url)),
    include: ['**/*.test.ts'],
    exclude: skipped,
    ...extra,
  },
});
/** A package whose unit files share modules, and the project of its integration files, isolated. */
const sharing = (name: string, root: string) => [
  project(name, root, { isolate: false, exclude: [...skipped, '**/*.int.test.ts'] }),
  project(`${name}-int`, root, { include: ['**/*.int.test.ts'] }),
];

export default defineConfig({
  test: {
    reporters: [
      'default',
      './tools/src/slowest-files-reporter.ts',
      './tools/src/leaked-processes-reporter.ts',
      './tools/src/closing-line-reporter.ts',
    ],
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      project('specs', 'specs'),
      project('spec-model', 'packages/spec-model'),
      project('rate-limit', 'packages/rate-limit'),
      project('auth', 'packages/auth'),
      project('client-kit', 'packages/client-kit'),
      ...sharing('collection-client', 'packages/collection-client'),
      ...sharing('admin-client', 'packages/admin-client'),
      ...sharing('analytics-client', 'packages/analytics-client'),
      project('mall-state', 'packages/mall-state'),
      ...sharing('sandbox', 'packages/sandbox'),
      ...sharing('mock-server', 'packages/mock-server'),
      ...sharing('contract-tests', 'packages/contract-tests'),
      project('docs', 'docs'),
      project('tools', 'tools'),
    ],
  },
});
