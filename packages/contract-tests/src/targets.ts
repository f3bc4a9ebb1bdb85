// Where a contract run goes and with which credentials. With a base URL, the server there: the
// collection API with the client ID and secret in Basic (and, when given, a client limited to some
// scopes for the scope checks); the admin and analytics APIs with an
// access token given, or one obtained for a registered app through the authorization-code flow
// (token-flow.ts), plus one lacking the API's scopes for the 403 transactions. Without a base URL,
// our own mock of the API (@mall-api/mock-server, loaded only then), started on a free port, with
// the demo credentials and one access token per transaction from the mock's OAuth authority (each
// for its own mall, so one transaction's rate-limit budget never leaks into the next; the 429
// transactions exhaust theirs on purpose, on malls' clocks held still so none drains meanwhile).
// In sandbox mode our mock is started with a stateful sandbox mall (in memory, seeded), and the
// target says so, so the hooks create what each transaction acts on; with a base URL, sandbox mode
// declares the server there a sandbox (say `mall-api-mock --sandbox`).
import { basicAuthorization } from '@mall-api/auth';
import type { OAuthAuthority } from '@mall-api/mock-server';
import type { ApiName } from '@mall-api/spec-model';
import { type ApiFacts, apiFacts, scopesOutside } from './api-facts.js';
import type { ContractSettings } from './settings.js';
import { obtainAccessToken } from './token-flow.js';

/** A prepared target: the settings the hooks get (but the spec file), and how to stop it. */
export interface ContractTarget extends Omit<ContractSettings, 'api' | 'specFile'> {
  close(): Promise<void>;
}

/** How to reach the server under test; all optional (no base URL: our mock). */
export interface TargetOptions {
  readonly baseUrl?: string | undefined;
  /** Collection: the client's ID and secret. Admin, analytics: a registered app for the token flow. */
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
  /** An access token to use instead of the token flow. */
  readonly accessToken?: string | undefined;
  /** A token lacking the API's scopes, for the 403 transactions. */
  readonly forbiddenAccessToken?: string | undefined;
  /** Collection: the ID and secret of a client limited to some scopes, for the scope checks. */
  readonly forbiddenClientId?: string | undefined;
  readonly forbiddenClientSecret?: string | undefined;
  /** The mall's OAuth server for the token flow (default: the base URL, which serves it for admin). */
  readonly authBaseUrl?: string | undefined;
  /** A redirect URI registered for the app (default: a loopback `/callback`). */
  readonly redirectUri?: string | undefined;
  /** The mall the credentials read (analytics: sent as the `mall`-role query parameter). */
  readonly mallId?: string | undefined;
  /** Test a stateful sandbox. */
  readonly sandbox?: boolean | undefined;
}

/** The options the CONTRACT_* environment variables give (the CLI's flags override them). */
export function targetOptionsFromEnv(env: NodeJS.ProcessEnv): TargetOptions {
  return {
    baseUrl: env.CONTRACT_BASE_URL,
    clientId: env.CONTRACT_CLIENT_ID,
    clientSecret: env.CONTRACT_CLIENT_SECRET,
    accessToken: env.CONTRACT_ACCESS_TOKEN,
    forbiddenAccessToken: env.CONTRACT_FORBIDDEN_ACCESS_TOKEN,
    forbiddenClientId: env.CONTRACT_FORBIDDEN_CLIENT_ID,
    forbiddenClientSecret: env.CONTRACT_FORBIDDEN_CLIENT_SECRET,
    authBaseUrl: env.CONTRACT_AUTH_BASE_URL,
    redirectUri: env.CONTRACT_REDIRECT_URI,
    mallId: env.CONTRACT_MALL_ID,
    sandbox: env.CONTRACT_SANDBOX === '1',
  };
}

const defaultRedirectUri = 'http://127.0.0.1:9/callback';
const tokenPoolSize = 600;
/** The sample mall a sandbox target is seeded with, so lists have something in them. */
const sandboxSeed = 1;

/** Prepares a contract target for `api`. */
export async function prepareTarget(api: string, options: TargetOptions = {}): Promise<ContractTarget> {
  const facts = await apiFacts(api);
  return options.baseUrl
    ? remoteTarget(facts, options.baseUrl, options)
    : localTarget(facts, options.sandbox === true);
}

async function remoteTarget(
  facts: ApiFacts,
  rawBaseUrl: string,
  options: TargetOptions,
): Promise<ContractTarget> {
  const baseUrl = rawBaseUrl.replace(/\/$/, '');
  const common = {
    baseUrl,
    targetIsMock: false,
    sandbox: options.sandbox === true,
    ...(options.mallId ? { mallIds: [options.mallId] } : {}),
    close: async () => {},
  };
  const { clientId = '', clientSecret = '', forbiddenClientId, forbiddenClientSecret } = options;
  if (facts.auth === 'basic')
    return {
      ...common,
      authorizations: [basicAuthorization(clientId, clientSecret)],
      forbiddenAuthorizations:
        forbiddenClientId && forbiddenClientSecret
          ? [basicAuthorization(forbiddenClientId, forbiddenClientSecret)]
          : [],
    };
  const flow = {
    authBaseUrl: options.authBaseUrl ?? baseUrl,
    clientId,
    clientSecret,
    redirectUri: options.redirectUri ?? defaultRedirectUri,
  };
  const withApp = clientId !== '' && clientSecret !== '';
  if (!options.accessToken && !withApp)
    throw new Error(
      `the ${facts.api} API needs --access-token, or --client-id and --client-secret of a registered app`,
    );
  const accessToken = options.accessToken ?? (await obtainAccessToken({ ...flow, scopes: facts.scopes }));
  const forbidden =
    options.forbiddenAccessToken ??
    (withApp ? await obtainAccessToken({ ...flow, scopes: await scopesOutside(facts.api) }) : undefined);
  return {
    ...common,
    authorizations: [`Bearer ${accessToken}`],
    forbiddenAuthorizations: forbidden ? [`Bearer ${forbidden}`] : [],
    // The OAuth transactions need an app whose authorization server consents without a user.
    ...(facts.servesOAuth && withApp && !options.accessToken
      ? { oauth: { clientId, clientSecret, redirectUri: flow.redirectUri } }
      : {}),
  };
}

async function localTarget(facts: ApiFacts, sandbox: boolean): Promise<ContractTarget> {
  const { startMockServers } = await import('@mall-api/mock-server');
  const api: ApiName = facts.api;
  const startedAt = Date.now();
  const served = await startMockServers({
    apis: [api],
    ports: { [api]: 0 },
    // The hooks give each transaction its own client through X-Forwarded-For, believed from loopback.
    trustProxy: ['loopback'],
    // The malls' clocks stand still for the run: a 429 transaction's budget, spent by the hooks,
    // cannot drain on the wall clock before Dredd's own call, however slow the machine.
    clock: () => startedAt,
    ...(sandbox ? { sandbox: { store: 'memory', seed: sandboxSeed } } : {}),
  });
  const [mock] = served.mocks;
  if (!mock) throw new Error(`the ${api} mock did not start`);
  return mockTarget(api, { url: mock.url, authority: served.authority, sandbox, close: served.close });
}

/** One of our mocks, running (or a proxy in front of one, at `url`). */
export interface RunningMockTarget {
  readonly url: string;
  /** The mock's OAuth authority, which issues the tokens the transactions use. */
  readonly authority: OAuthAuthority;
  readonly sandbox: boolean;
  close(): Promise<void>;
}

/** The contract target of a running mock of `api`: the demo credentials and a pool of tokens. */
export async function mockTarget(api: ApiName, running: RunningMockTarget): Promise<ContractTarget> {
  const { demoCollectionClients, demoOAuthClient, issueDemoTokens } = await import('@mall-api/mock-server');
  const facts = await apiFacts(api);
  const { sandbox, authority } = running;
  const common = { baseUrl: running.url, targetIsMock: true, sandbox, close: running.close };
  if (facts.auth === 'basic') {
    const [demo] = demoCollectionClients;
    return {
      ...common,
      authorizations: [basicAuthorization(demo.clientId, demo.clientSecret)],
      forbiddenAuthorizations: [],
    };
  }
  const outside = await scopesOutside(api);
  const everyScope = [...facts.scopes, ...outside];
  const tokens = (scopes: readonly string[], prefix: string) =>
    Promise.all(
      Array.from(
        { length: tokenPoolSize },
        async (_, i) =>
          `Bearer ${(await issueDemoTokens(authority, [...scopes], `${prefix}${i}`)).access_token}`,
      ),
    );
  return {
    ...common,
    authorizations: await tokens(everyScope, 'contract'),
    mallIds: Array.from({ length: tokenPoolSize }, (_, i) => `contract${i}`),
    forbiddenAuthorizations: await tokens(outside, 'forbidden'),
    ...(facts.servesOAuth
      ? {
          oauth: {
            clientId: demoOAuthClient.clientId,
            clientSecret: demoOAuthClient.clientSecret,
            redirectUri: defaultRedirectUri,
          },
        }
      : {}),
  };
}
