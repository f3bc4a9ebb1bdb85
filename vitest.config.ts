// Root test configuration: one vitest run covers every workspace as a named project,
// and a small reporter prints the plain "N passed, N failed" closing line CI reads.
import { defineConfig } from 'vitest/config';

const project = (name: string, root: string, extra: Record<string, unknown> = {}) => ({
  extends: true,
  test: { name, root, include: ['**/*.test.ts'], exclude: ['**/node_modules/**', '**/dist/**'], ...extra },
});

export default defineConfig({
  test: {
    reporters: ['default', './tools/src/closing-line-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      project('specs', 'specs'),
      project('spec-model', 'packages/spec-model'),
      project('rate-limit', 'packages/rate-limit'),
      project('auth', 'packages/auth'),
      project('client-kit', 'packages/client-kit'),
      project('collection-client', 'packages/collection-client', {
        typecheck: { enabled: true, include: ['**/*.test-d.ts'], tsconfig: './tsconfig.test.json' },
      }),
      project('admin-client', 'packages/admin-client', {
        typecheck: { enabled: true, include: ['**/*.test-d.ts'], tsconfig: './tsconfig.test.json' },
      }),
      project('analytics-client', 'packages/analytics-client', {
        typecheck: { enabled: true, include: ['**/*.test-d.ts'], tsconfig: './tsconfig.test.json' },
      }),
      project('sandbox', 'packages/sandbox'),
      project('mock-server', 'packages/mock-server'),
      project('contract-tests', 'packages/contract-tests'),
      project('docs', 'docs'),
      project('tools', 'tools'),
    ],
  },
});
