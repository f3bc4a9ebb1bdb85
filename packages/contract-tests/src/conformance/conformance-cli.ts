// `mall-api-contract conformance`: the conformance runner from the command line. Same target and
// credential flags as the Dredd command (and CONTRACT_* variables); without --base-url it tests our
// sandbox mock of each API, started here. Writes JUnit (--junit) and Markdown (--report) reports,
// prints one line per failed check, and exits 1 when a check failed.
import { mkdirSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { type ApiName, apiNames } from '@mall-api/spec-model';
import { isApiName } from '../api-facts.js';
import { targetFlags, targetOptionsFrom } from '../target-flags.js';
import { prepareTarget } from '../targets.js';
import type { Credentials } from './conformance-client.js';
import { junitReport, markdownReport } from './conformance-report.js';
import { startLocalTarget } from './local-target.js';
import { mockClockSleep } from './mock-clock.js';
import { type ConformanceReport, runConformance } from './run-conformance.js';

const usage = `usage: mall-api-contract conformance [--api NAME] [--base-url URL] [options]

  --api NAME[,NAME]            ${apiNames.join(', ')} (default: all; one with --base-url)
  --base-url URL               the server to test (default: our sandbox mock, started here)
  --client-id, --client-secret, --access-token, --forbidden-access-token, --auth-base-url,
  --redirect-uri               credentials, as for the Dredd run (CONTRACT_* variables too)
  --forbidden-client-id ID, --forbidden-client-secret S
                               collection: a client limited to some scopes, for the scope checks
  --forbidden-scopes S[,S]     the scopes that limited client or --forbidden-access-token does grant
                               (the checks of operations needing one of them are skipped)
  --other-mall-access-token T  a token of another mall (its 401 check is skipped without it)
  --expired-access-token T     an expired token (likewise)
  --seed N                     seed of the generated values (default 1)
  --max-requests N             request budget; what is left is skipped (default 5000)
  --spend-rate-limit           run the rate-limit checks, which exhaust the budget on purpose
  --mock-clock                 the server is one mall of our mock: move its clock instead of waiting
  --operation ID[,ID]          only these operations' checks (and the API-wide ones)
  --junit PATH                 write a JUnit XML report
  --report PATH                write a Markdown report
`;

const { values } = parseArgs({
  args: process.argv.slice(3),
  options: {
    ...targetFlags,
    'forbidden-scopes': { type: 'string' },
    'other-mall-access-token': { type: 'string' },
    'expired-access-token': { type: 'string' },
    seed: { type: 'string' },
    'max-requests': { type: 'string' },
    'spend-rate-limit': { type: 'boolean' },
    'mock-clock': { type: 'boolean' },
    operation: { type: 'string' },
    junit: { type: 'string' },
    report: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}

/** Fails with a message and the usage, without a stack trace. */
function fail(message: string): never {
  writeSync(2, `mall-api-contract conformance: ${message}\n\n${usage}`);
  process.exit(2);
}

const wholeNumber = (text: string | undefined, name: string, fallback: number) => {
  if (text === undefined) return fallback;
  const number = Number(text);
  if (!Number.isInteger(number) || number < 0) fail(`${name} must be a whole number, got ${text}`);
  return number;
};

const targetOptions = targetOptionsFrom(values, process.env);
const apis = (values.api ?? process.env.CONTRACT_API ?? apiNames.join(',')).split(',').filter(Boolean);
const unknown = apis.filter((api) => !isApiName(api));
if (unknown.length > 0) fail(`unknown API ${unknown.join(', ')}`);
if (targetOptions.baseUrl && apis.length !== 1) fail('with --base-url, name one API with --api');
const seed = wholeNumber(values.seed, '--seed', 1);
const maxRequests = wholeNumber(values['max-requests'], '--max-requests', 5000);

/** The server, its credentials and how to wait, for one API. */
async function targetOf(api: ApiName) {
  const baseUrl = targetOptions.baseUrl;
  if (!baseUrl) return { ...(await startLocalTarget(api)), spendRateLimit: true };
  const prepared = await prepareTarget(api, targetOptions);
  const credentials: Credentials = {
    authorization: prepared.authorizations[0] ?? '',
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

const reports: ConformanceReport[] = [];
for (const api of apis.filter(isApiName)) {
  let target: Awaited<ReturnType<typeof targetOf>>;
  try {
    target = await targetOf(api);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
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
