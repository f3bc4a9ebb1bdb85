// Where a contract run goes and with which credentials. With a base URL, the server there: the
// collection API with the client ID and secret in Basic (and a client limited to some scopes); the
// admin and analytics APIs with a given access token or one from the authorization-code flow
// (token-flow.ts), plus one lacking the API's scopes for the 403s. Without a base URL, our own mock
// (loaded only then) on a free port, with one token per transaction, each for its own mall so no
// rate-limit budget leaks into the next (malls' clocks held still for the 429s). Sandbox mode
// starts our mock with a seeded sandbox mall, or declares the server at the base URL one.
import { basicAuthorization } from '@mall-api/auth';
import { envName } from '@mall-api/auth/command-line';
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

/** The command-line flag of each text option; its variable is CONTRACT_<FLAG> (`CONTRACT_BASE_URL`). */
export const targetOptionFlags = {
  baseUrl: 'base-url',
  clientId: 'client-id',
  clientSecret: 'client-secret',
  accessToken: 'access-token',
  forbiddenAccessToken: 'forbidden-access-token',
  forbiddenClientId: 'forbidden-client-id',
  forbiddenClientSecret: 'forbidden-client-secret',
  authBaseUrl: 'auth-base-url',
  redirectUri: 'redirect-uri',
  mallId: 'mall-id',
} as const satisfies Record<Exclude<keyof TargetOptions, 'sandbox'>, string>;

/** The options the CONTRACT_* environment variables give (the CLI's flags override them). */
export function targetOptionsFromEnv(env: NodeJS.ProcessEnv): TargetOptions {
  const options: Record<string, string | boolean | undefined> = { sandbox: env.CONTRACT_SANDBOX === '1' };
  for (const [option, flag] of Object.entries(targetOptionFlags))
    options[option] = env[envName('CONTRACT_', flag)];
  return options;
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
