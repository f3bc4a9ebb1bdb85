// `mall-api-contract conformance`: the conformance runner from the command line. Same target and
// credential flags as the Dredd command (and CONTRACT_* variables); without --base-url it tests our
// sandbox mock of each API, started here. Writes JUnit (--junit) and Markdown (--report) reports,
// prints one line per failed check, and exits 1 when a check failed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type CliOption,
  optionHelp,
  printedHelpOrVersion,
  readOptions,
  runCommand,
  standardOptions,
  UsageError,
} from '@mall-api/auth/command-line';
import type { ApiName } from '@mall-api/spec-model';
import { apisFrom, asUsage, mockClockFlag, targetFlags, targetOptionsFrom } from '../target-flags.js';
import { prepareTarget } from '../targets.js';
import type { Credentials } from './conformance-client.js';
import { junitReport, markdownReport } from './conformance-report.js';
import { startLocalTarget } from './local-target.js';
import { mockClockSleep } from './mock-clock.js';
import { type ConformanceReport, runConformance } from './run-conformance.js';

/** Every option of the conformance command. */
const options = {
  ...targetFlags,
  'forbidden-scopes': {
    type: 'string',
    value: 'S[,S]',
    help: 'the scopes the limited client or --forbidden-access-token does grant (checks of operations needing one are skipped)',
  },
  'other-mall-access-token': {
    type: 'string',
    value: 'TOKEN',
    help: 'a token of another mall (its 401 check is skipped without it)',
  },
  'expired-access-token': { type: 'string', value: 'TOKEN', help: 'an expired token (likewise)' },
  seed: { type: 'string', value: 'N', default: '1', help: 'seed of the generated values' },
  'max-requests': {
    type: 'string',
    value: 'N',
    default: '5000',
    help: 'request budget; what is left is skipped',
  },
  'spend-rate-limit': {
    type: 'boolean',
    help: 'run the rate-limit checks, which exhaust the budget on purpose',
  },
  'mock-clock': mockClockFlag,
  operation: {
    type: 'string',
    value: 'ID[,ID]',
    help: "only these operations' checks (and the API-wide ones)",
  },
  junit: { type: 'string', value: 'PATH', help: 'write a JUnit XML report' },
  report: { type: 'string', value: 'PATH', help: 'write a Markdown report' },
  ...standardOptions,
} satisfies Record<string, CliOption>;

const usage = `Usage: mall-api-contract conformance [--api NAME] [--base-url URL] [options]
Without --base-url, tests our sandbox mock of each API, started here. Target and credential
options also come from CONTRACT_* variables, as for the Dredd run.

Options:
${optionHelp(options)}`;

type Values = ReturnType<typeof readOptions<typeof options>>['values'];

const wholeNumber = (text: string | undefined, name: string, fallback: number) => {
  if (text === undefined) return fallback;
  const number = Number(text);
  if (!Number.isInteger(number) || number < 0)
    throw new UsageError(`${name} must be a whole number, got ${text}`);
  return number;
};

/** The server, its credentials and how to wait, for one API. */
async function targetOf(api: ApiName, values: Values) {
  const targetOptions = targetOptionsFrom(values, process.env);
  const baseUrl = targetOptions.baseUrl;
  if (!baseUrl) return { ...(await startLocalTarget(api)), spendRateLimit: true };
  const prepared = await prepareTarget(api, targetOptions);
  const credentials: Credentials = {
    authorization: prepared.authorizations[0] ?? '',
    mallId: prepared.mallIds?.[0],
    forbidden: prepared.forbiddenAuthorizations[0],
    forbiddenScopes: (values['forbidden-scopes'] ?? process.env.CONTRACT_FORBIDDEN_SCOPES)
      ?.split(',')
      .filter(Boolean),
    otherMall: values['other-mall-access-token'] && `Bearer ${values['other-mall-access-token']}`,
    expired: values['expired-access-token'] && `Bearer ${values['expired-access-token']}`,
  };
  return {
    baseUrl: prepared.baseUrl,
    credentials,
    spendRateLimit: values['spend-rate-limit'] === true,
    ...(values['mock-clock'] ? { sleep: mockClockSleep(prepared.baseUrl) } : {}),
    close: prepared.close,
  };
}

async function main(): Promise<void> {
  const { values } = readOptions(options, process.argv.slice(3), {}, undefined, { allowPositionals: false });
  if (printedHelpOrVersion(values, usage, new URL('../../package.json', import.meta.url))) return;
  const targetOptions = targetOptionsFrom(values, process.env);
  const apis = apisFrom(values.api, targetOptions.baseUrl);
  const seed = wholeNumber(values.seed, '--seed', 1);
  const maxRequests = wholeNumber(values['max-requests'], '--max-requests', 5000);

  const reports: ConformanceReport[] = [];
  for (const api of apis) {
    const target = await asUsage(() => targetOf(api, values));
    process.stdout.write(`conformance of the ${api} API against ${target.baseUrl} (seed ${seed})\n`);
    try {
      const report = await runConformance({
        api,
        baseUrl: target.baseUrl,
        credentials: target.credentials,
        seed,
        maxRequests,
        spendRateLimit: target.spendRateLimit,
        ...('sleep' in target && target.sleep ? { sleep: target.sleep } : {}),
        ...(values.operation ? { operations: values.operation.split(',') } : {}),
        onResult: (r) => {
          if (r.status === 'failed')
            process.stdout.write(`fail: ${r.subject} (${r.group}) ${r.name}: ${r.details.join('; ')}\n`);
        },
      });
      reports.push(report);
      process.stdout.write(
        `${api}: ${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped, ${report.requests} requests\n`,
      );
    } finally {
      await target.close();
    }
  }
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  if (values.junit) write(values.junit, junitReport(reports));
  if (values.report) write(values.report, markdownReport(reports));
  process.exit(reports.some((report) => report.failed > 0) ? 1 : 0);
}

runCommand('mall-api-contract conformance', main);
