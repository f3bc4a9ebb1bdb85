// The getting-started guide's TypeScript examples, run as written by node (compiled to JavaScript
// by TypeScript's own transpiler, the packages resolved from this repository's node_modules as a
// partner's project would) against the default sandbox mocks (`npm start`'s stateful malls, seed 1)
// with only the ports changed and a fresh access token of the demo mall in `MALL_ACCESS_TOKEN`:
// each exits 0 (the methods throw on any error status) and prints what it read. The example that
// starts from a token manager's stored tokens gets them as `mall-api-auth login` leaves them: the
// demo app's tokens saved in a token folder (a temporary one in place of `.mall-api/tokens`), with
// the demo app's secret in `MALL_API_CLIENT_SECRET`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileTokenStore, parseTokenResponse } from '@mall-api/auth';
import { demoOAuthClient, issueDemoTokens, startMockServers } from '@mall-api/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guideExamples, runExample } from './guide-examples.js';

const { text: guide, examples } = await guideExamples('getting-started');
const documented = {
  collection: 'http://127.0.0.1:4010',
  admin: 'http://127.0.0.1:4011',
  analytics: 'http://127.0.0.1:4012',
};

let served: Awaited<ReturnType<typeof startMockServers>>;
let tokenFolder: string;
beforeAll(async () => {
  served = await startMockServers({ ports: { collection: 0, admin: 0, analytics: 0 }, sandbox: { seed: 1 } });
  tokenFolder = await mkdtemp(join(tmpdir(), 'getting-started-tokens-'));
});
afterAll(async () => {
  await served?.close();
  if (tokenFolder) await rm(tokenFolder, { recursive: true, force: true });
});

describe('the getting-started guide’s examples against the default sandbox', () => {
  it('has examples in the method form, one per API at least, and one with a token manager', () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
    expect(examples.filter(({ source }) => source.includes('createTokenManager'))).toHaveLength(1);
    for (const call of ['client.products.list(', 'admin.categories.list(', 'analytics.visitors.view.list('])
      expect(guide).toContain(call);
  });

  it.each(examples)(
    'example $index runs as written and prints what it read',
    { timeout: 120_000 },
    async ({ source }) => {
      const demoTokens = await issueDemoTokens(served.authority, served.oauth.scopes, 'demomall');
      await createFileTokenStore({ directory: tokenFolder }).set('demomall', parseTokenResponse(demoTokens));
      const replacements: [string, string][] = [
        ...served.mocks.map((mock): [string, string] => [documented[mock.api], mock.url]),
        ["'.mall-api/tokens'", JSON.stringify(tokenFolder)],
      ];
      const { code, out, err } = await runExample(source, replacements, {
        MALL_ACCESS_TOKEN: demoTokens.access_token,
        MALL_API_CLIENT_SECRET: demoOAuthClient.clientSecret,
      });
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(out.trim()).not.toBe('');
      expect(out).not.toMatch(/^\[\]$|^0 days$/m);
    },
  );
});
