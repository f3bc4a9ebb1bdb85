// `mall-api-mock coverage` as a CI step runs it: the built command against running mocks, its
// exit code following the minimums, and the shared command-line convention (help, version,
// unknown options named, exit 2 on a usage mistake).
// An integration test (a mock and a run of the command per case): `npm test` and CI run it, the
// fast suite leaves it out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli-process.js';
import { type StartedMock, startMock } from './index.js';

let mock: StartedMock;
const mall = 'coverage-cli';

beforeAll(async () => {
  mock = await startMock({ apis: ['admin'] });
  const { access_token: token } = await mock.token(mall);
  await fetch(`${mock.mallUrl('admin', mall)}/api/v2/admin/categories`, {
    headers: { authorization: `Bearer ${token}` },
  });
});
afterAll(() => mock.close());

const coverage = (...args: string[]) =>
  runCli(['coverage', '--url', mock.urls.admin as string, '--mall', mall, '--api', 'admin', ...args]);

describe('mall-api-mock coverage', () => {
  it('exits 0 with the Markdown report when every minimum is reached', async () => {
    const { code, stdout } = await coverage('--min-operations', '1%', '--min-rules', '0');
    expect(code).toBe(0);
    expect(stdout).toContain('# API coverage');
    expect(stdout).toContain('| operations | 1% |');
    expect(stdout).toContain('| ✓ | admin listCategories (GET /api/v2/admin/categories) |');
  });

  it('exits 1 when a minimum is not reached', async () => {
    const { code, stdout } = await coverage('--min-operations', '80%');
    expect(code).toBe(1);
    expect(stdout).toMatch(/\| operations \| 80% \| [\d.]+% \| FAILED \|/);
  });

  it('prints JUnit XML or JSON when asked', async () => {
    const junit = await coverage('--format', 'junit', '--min-responses', '100');
    expect(junit.code).toBe(1);
    expect(junit.stdout).toContain('<testsuite name="coverage.thresholds" tests="1" failures="1"');
    const json = await coverage('--format', 'json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ malls: [mall], passed: true, thresholds: [] });
  });

  it('reads its options from the environment too', async () => {
    const { code } = await runCli(['coverage'], {
      env: {
        MALL_API_MOCK_COVERAGE_URL: mock.urls.admin as string,
        MALL_API_MOCK_COVERAGE_MALL: mall,
        MALL_API_MOCK_COVERAGE_MIN_OPERATIONS: '99%',
      },
    });
    expect(code).toBe(1);
  });

  it('exits 2 naming an unknown option, a bad percentage, a missing mall or an unknown API', async () => {
    const unknown = await coverage('--min-operation', '80');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--min-operation\b.*--min-operations/s);
    const percent = await coverage('--min-rules', '150%');
    expect(percent.code).toBe(2);
    expect(percent.stderr).toContain('--min-rules must be a percentage from 0 to 100, got 150%');
    const noMall = await runCli(['coverage', '--url', mock.urls.admin as string]);
    expect(noMall.code).toBe(2);
    expect(noMall.stderr).toContain('--mall');
    const api = await coverage('--api', 'unicorns');
    expect(api.code).toBe(2);
    expect(api.stderr).toContain('--api must be one of');
  });

  it('prints its help and version, exit 0', async () => {
    const help = await runCli(['coverage', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--min-operations PERCENT');
    const version = await runCli(['coverage', '--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exits 1 with the mocks’ message when they refuse the request', async () => {
    const { code, stderr } = await runCli([
      'coverage',
      '--url',
      mock.urls.admin as string,
      '--mall',
      'NOT A MALL',
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/malls/);
  });
});
