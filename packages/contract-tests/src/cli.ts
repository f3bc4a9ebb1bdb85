// `mall-api-contract` (also `npx @mall-api/contract-tests`): contract-tests a server against the
// specs with Dredd. Without --base-url it starts our mock of each API on a free port and tests
// that; with it, the server there (one API, --api). Every flag has a CONTRACT_* variable.
import { writeSync } from 'node:fs';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { isApiName } from './api-facts.js';
import { runContract } from './run-contract.js';
import { targetFlags, targetOptionsFrom } from './target-flags.js';
import { prepareTarget, type TargetOptions } from './targets.js';

const usage = `usage: mall-api-contract [--api admin] [--base-url URL] [options]

  --api NAME[,NAME]          ${apiNames.join(', ')} (default: all; one with --base-url)   CONTRACT_API
  --base-url URL             the server to test (default: our mock, started here)    CONTRACT_BASE_URL
  --client-id ID             collection: the client; admin, analytics: a registered  CONTRACT_CLIENT_ID
  --client-secret SECRET       app, whose tokens the authorization-code flow gets     CONTRACT_CLIENT_SECRET
  --access-token TOKEN       admin, analytics: a token to use instead of the flow    CONTRACT_ACCESS_TOKEN
  --forbidden-access-token T a token lacking the API's scopes, for the 403 cases     CONTRACT_FORBIDDEN_ACCESS_TOKEN
  --forbidden-client-id ID   collection: a client limited to some scopes, and its    CONTRACT_FORBIDDEN_CLIENT_ID
  --forbidden-client-secret S  secret, for the scope cases                           CONTRACT_FORBIDDEN_CLIENT_SECRET
  --auth-base-url URL        the mall's OAuth server (default: --base-url)           CONTRACT_AUTH_BASE_URL
  --redirect-uri URI         a redirect URI registered for the app                   CONTRACT_REDIRECT_URI
  --sandbox                  test a stateful sandbox (ours, or the server there)     CONTRACT_SANDBOX=1
  --junit PATH               also write a JUnit XML report (one per API: PATH-<api>) CONTRACT_JUNIT
`;

const { values } = parseArgs({
  options: {
    ...targetFlags,
    sandbox: { type: 'boolean' },
    junit: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}

const fromFlags = targetOptionsFrom(values, process.env);
const options: TargetOptions = { ...fromFlags, sandbox: values.sandbox ?? fromFlags.sandbox };
const apis = (values.api ?? process.env.CONTRACT_API ?? apiNames.join(',')).split(',').filter(Boolean);
const junit = values.junit ?? process.env.CONTRACT_JUNIT;

/** Fails with a message and the usage, without a stack trace. */
function fail(message: string): never {
  writeSync(2, `mall-api-contract: ${message}\n\n${usage}`);
  process.exit(2);
}

const unknown = apis.filter((api) => !isApiName(api));
if (unknown.length > 0) fail(`unknown API ${unknown.join(', ')}`);
if (options.baseUrl && apis.length !== 1) fail('with --base-url, name one API with --api');

/** The report path of one API: PATH itself for one API, PATH-<api> before the extension for several. */
const reportPath = (api: string) => {
  if (!junit || apis.length === 1) return junit;
  const extension = extname(junit);
  return `${junit.slice(0, junit.length - extension.length)}-${api}${extension}`;
};

let failed = false;
for (const api of apis.filter(isApiName)) {
  let target: Awaited<ReturnType<typeof prepareTarget>>;
  try {
    target = await prepareTarget(api, options);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  process.stdout.write(
    `contract tests of the ${api} API against ${target.baseUrl}${target.sandbox ? ' (sandbox)' : ''}\n`,
  );
  try {
    const report = reportPath(api);
    const result = await runContract({
      api,
      target,
      output: (chunk) => process.stdout.write(chunk),
      junit: report,
    });
    process.stdout.write(
      `${api}: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped\n`,
    );
    if (report) process.stdout.write(`JUnit report: ${report}\n`);
    failed ||= result.exitCode !== 0;
  } finally {
    await target.close();
  }
}
process.exit(failed ? 1 : 0);
