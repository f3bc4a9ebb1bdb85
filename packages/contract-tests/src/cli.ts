// `mall-api-contract` (also `npx @mall-api/contract-tests`): contract-tests a server against the
// specs with Dredd. Without --base-url it starts our mock of each API on a free port and tests
// that; with it, the server there (one API), paced by its rate-limit headers in real time or, with
// --mock-clock, on the clock of the mall of our mock it addresses. Every flag has a CONTRACT_*
// variable. Options, `--help`, `--version` and exit codes follow @mall-api/auth/command-line.
import { extname } from 'node:path';
import {
  type CliOption,
  optionHelp,
  printedHelpOrVersion,
  readOptions,
  runCommand,
  standardOptions,
  UsageError,
} from '@mall-api/auth/command-line';
import { mockClockSleep } from './conformance/mock-clock.js';
import { runContract } from './run-contract.js';
import { apisFrom, asUsage, mockClockFlag, targetFlags, targetOptionsFrom } from './target-flags.js';
import { prepareTarget, type TargetOptions } from './targets.js';

/** Every option of the command. */
const options = {
  ...targetFlags,
  sandbox: { type: 'boolean', help: 'test a stateful sandbox (ours, or the server there)' },
  'mock-clock': mockClockFlag,
  junit: { type: 'string', value: 'PATH', help: 'also write a JUnit XML report (one per API: PATH-<api>)' },
  ...standardOptions,
} satisfies Record<string, CliOption>;

const usage = `Usage: mall-api-contract [--api admin] [--base-url URL] [options]
       mall-api-contract conformance [options]   (the conformance runner; conformance --help)

Options (each also from CONTRACT_<NAME>, e.g. CONTRACT_BASE_URL; CONTRACT_SANDBOX=1):
${optionHelp(options)}`;

async function main(): Promise<void> {
  const { values } = readOptions(options, process.argv.slice(2), {}, undefined, { allowPositionals: false });
  if (printedHelpOrVersion(values, usage, new URL('../package.json', import.meta.url))) return;
  const fromFlags = targetOptionsFrom(values, process.env);
  const target: TargetOptions = { ...fromFlags, sandbox: values.sandbox ?? fromFlags.sandbox };
  const apis = apisFrom(values.api, target.baseUrl);
  const junit = values.junit ?? process.env.CONTRACT_JUNIT;
  const mockClock = values['mock-clock'] ?? process.env.CONTRACT_MOCK_CLOCK === '1';
  if (mockClock) {
    const { baseUrl } = target;
    if (!baseUrl) throw new UsageError('--mock-clock needs --base-url (our mock, started here, needs none)');
    await asUsage(() => mockClockSleep(baseUrl));
  }

  /** The report path of one API: PATH itself for one API, PATH-<api> before the extension for several. */
  const reportPath = (api: string) => {
    if (!junit || apis.length === 1) return junit;
    const extension = extname(junit);
    return `${junit.slice(0, junit.length - extension.length)}-${api}${extension}`;
  };

  let failed = false;
  for (const api of apis) {
    const prepared = await asUsage(() => prepareTarget(api, target));
    process.stdout.write(
      `contract tests of the ${api} API against ${prepared.baseUrl}${prepared.sandbox ? ' (sandbox)' : ''}\n`,
    );
    try {
      const report = reportPath(api);
      const result = await runContract({
        api,
        target: prepared,
        output: (chunk) => process.stdout.write(chunk),
        junit: report,
        mockClock,
      });
      process.stdout.write(
        `${api}: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped\n`,
      );
      if (report) process.stdout.write(`JUnit report: ${report}\n`);
      failed ||= result.exitCode !== 0;
    } finally {
      await prepared.close();
    }
  }
  process.exit(failed ? 1 : 0);
}

runCommand('mall-api-contract', main);
