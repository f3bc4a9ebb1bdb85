#!/usr/bin/env node
// `mall-api-contract`: contract-tests servers against the specs with Dredd.
// With no CONTRACT_BASE_URL it starts our mock on a free port and tests that; otherwise it tests
// the server at CONTRACT_BASE_URL with CONTRACT_CLIENT_ID / CONTRACT_CLIENT_SECRET.
//   CONTRACT_API=collection CONTRACT_BASE_URL=https://… CONTRACT_CLIENT_ID=… CONTRACT_CLIENT_SECRET=… mall-api-contract
import { basicAuthorization } from '@mall-api/auth';
import { apiProfiles, demoCollectionCredentials, startMockServer } from '@mall-api/mock-server';
import { runContract } from '../src/run-contract.js';

const apis = (process.env.CONTRACT_API ?? Object.keys(apiProfiles).join(',')).split(',').filter(Boolean);
let failed = false;
for (const api of apis) {
  if (!(api in apiProfiles))
    throw new Error(`unknown API ${api}; known: ${Object.keys(apiProfiles).join(', ')}`);
  const external = process.env.CONTRACT_BASE_URL;
  const mock = external ? undefined : await startMockServer({ api, port: 0 });
  const demo = demoCollectionCredentials[0];
  const clientId = process.env.CONTRACT_CLIENT_ID ?? demo.clientId;
  const clientSecret = process.env.CONTRACT_CLIENT_SECRET ?? demo.clientSecret;
  const baseUrl = external ?? mock.url;
  process.stdout.write(`contract tests of the ${api} API against ${baseUrl}\n`);
  try {
    const result = await runContract({
      api,
      baseUrl,
      authorization: basicAuthorization(clientId, clientSecret),
      targetIsMock: !external,
      output: (chunk) => process.stdout.write(chunk),
    });
    process.stdout.write(
      `${api}: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped\n`,
    );
    failed ||= result.exitCode !== 0;
  } finally {
    await mock?.close();
  }
}
process.exit(failed ? 1 : 0);
