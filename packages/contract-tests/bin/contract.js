#!/usr/bin/env node
// `mall-api-contract`: contract-tests servers against the specs with Dredd.
// With no CONTRACT_BASE_URL it starts our mock of each API on a free port and tests that.
// Otherwise it tests the server at CONTRACT_BASE_URL (one API: set CONTRACT_API) with
//   collection: CONTRACT_CLIENT_ID, CONTRACT_CLIENT_SECRET
//   admin, analytics: CONTRACT_ACCESS_TOKEN, and optionally CONTRACT_FORBIDDEN_ACCESS_TOKEN (a
//   token lacking the API's scopes, for the 403 transactions; without it they are skipped).
// CONTRACT_SANDBOX=1 tests the stateful sandbox instead: our mock is started with a seeded sandbox
// mall (with CONTRACT_BASE_URL, the server there is taken to be one, e.g. `mall-api-mock --sandbox`),
// and before each transaction expecting success the hooks create, through the API, what it acts on.
import { apiProfiles } from '@mall-api/mock-server';
import { runContract } from '../src/run-contract.js';
import { prepareTarget } from '../src/targets.js';

const apis = (process.env.CONTRACT_API ?? Object.keys(apiProfiles).join(',')).split(',').filter(Boolean);
if (process.env.CONTRACT_BASE_URL && apis.length !== 1) {
  throw new Error('with CONTRACT_BASE_URL, name the API in CONTRACT_API');
}
let failed = false;
for (const api of apis) {
  const target = await prepareTarget(api);
  process.stdout.write(
    `contract tests of the ${api} API against ${target.baseUrl}${target.sandbox ? ' (sandbox)' : ''}\n`,
  );
  try {
    const result = await runContract({ api, target, output: (chunk) => process.stdout.write(chunk) });
    process.stdout.write(
      `${api}: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped\n`,
    );
    failed ||= result.exitCode !== 0;
  } finally {
    await target.close();
  }
}
process.exit(failed ? 1 : 0);
