// Where a contract run goes and with which credentials. With CONTRACT_BASE_URL set, the server
// there, with credentials from the environment; otherwise our own mock of the API, started on a
// free port, with the demo credentials and one access token per transaction from the mock's OAuth
// authority (each for its own mall, so one transaction's rate-limit budget never leaks into the
// next; the 429 transactions exhaust theirs on purpose). In sandbox mode (`{ sandbox: true }`, or
// CONTRACT_SANDBOX=1) our mock is started with a stateful sandbox mall (in memory, seeded), and the
// target says so, so the hooks create what each transaction acts on; with CONTRACT_BASE_URL it
// declares the server there a sandbox (say `mall-api-mock --sandbox`).
import { basicAuthorization } from '@mall-api/auth';
import {
  apiProfiles,
  demoCollectionCredentials,
  demoOAuthApp,
  issueDemoTokens,
  startMockServers,
} from '@mall-api/mock-server';

const tokenPoolSize = 600;
/** The sample mall a sandbox target is seeded with, so lists have something in them. */
const sandboxSeed = 1;

/** Scopes that grant none of an API's operations, for the 403 transactions. */
const scopesGrantingNothing = { admin: ['mall.read_analytics'], analytics: ['mall.read_category'] };

/**
 * Prepares a contract target for `api`.
 * @param {string} api
 * @param {NodeJS.ProcessEnv} env
 * @param {{ sandbox?: boolean }} [options] `sandbox` overrides CONTRACT_SANDBOX
 * @returns {Promise<{ baseUrl: string, targetIsMock: boolean, sandbox: boolean, authorizations: string[], forbiddenAuthorizations: string[], oauth?: { clientId: string, clientSecret: string, redirectUri: string }, close: () => Promise<void> }>}
 */
export async function prepareTarget(api, env = process.env, options = {}) {
  const profile = apiProfiles[api];
  if (!profile) throw new Error(`unknown API ${api}; known: ${Object.keys(apiProfiles).join(', ')}`);
  const sandbox = options.sandbox ?? env.CONTRACT_SANDBOX === '1';
  if (env.CONTRACT_BASE_URL) {
    const authorization =
      profile.auth === 'basic'
        ? basicAuthorization(env.CONTRACT_CLIENT_ID ?? '', env.CONTRACT_CLIENT_SECRET ?? '')
        : `Bearer ${env.CONTRACT_ACCESS_TOKEN ?? ''}`;
    return {
      baseUrl: env.CONTRACT_BASE_URL.replace(/\/$/, ''),
      targetIsMock: false,
      sandbox,
      authorizations: [authorization],
      forbiddenAuthorizations: env.CONTRACT_FORBIDDEN_ACCESS_TOKEN
        ? [`Bearer ${env.CONTRACT_FORBIDDEN_ACCESS_TOKEN}`]
        : [],
      close: async () => {},
    };
  }
  const served = await startMockServers({
    apis: [api],
    ports: { [api]: 0 },
    ...(sandbox ? { sandbox: { store: 'memory', seed: sandboxSeed } } : {}),
  });
  const [mock] = served.mocks;
  if (profile.auth === 'basic') {
    const [demo] = demoCollectionCredentials;
    return {
      baseUrl: mock.url,
      targetIsMock: true,
      sandbox,
      authorizations: [basicAuthorization(demo.clientId, demo.clientSecret)],
      forbiddenAuthorizations: [],
      close: served.close,
    };
  }
  const allScopes = [
    'mall.read_category',
    'mall.write_category',
    'mall.read_product',
    'mall.write_product',
    'mall.read_analytics',
  ];
  const authorizations = Array.from(
    { length: tokenPoolSize },
    (_, i) => `Bearer ${issueDemoTokens(served.authority, allScopes, `contract${i}`).access_token}`,
  );
  const forbiddenAuthorizations = Array.from(
    { length: tokenPoolSize },
    (_, i) =>
      `Bearer ${issueDemoTokens(served.authority, scopesGrantingNothing[api] ?? [], `forbidden${i}`).access_token}`,
  );
  const oauth = profile.servesOAuth
    ? {
        clientId: demoOAuthApp.clientId,
        clientSecret: demoOAuthApp.clientSecret,
        redirectUri: 'http://127.0.0.1:9/callback',
      }
    : undefined;
  return {
    baseUrl: mock.url,
    targetIsMock: true,
    sandbox,
    authorizations,
    forbiddenAuthorizations,
    oauth,
    close: served.close,
  };
}
