// The conformance runner's own target without --base-url: our sandbox mock of one API, addressed
// as one mall (`/__mall/conformance`), with the demo credentials: for the collection API the full
// and the limited client; for the bearer APIs a token of every scope, one lacking the API's scopes,
// one of another mall, and an expired one. Waiting moves that mall's clock (mock-clock.ts).
import { basicAuthorization } from '@mall-api/auth';
import type { OAuthAuthority } from '@mall-api/mock-server';
import { type ApiName, loadSpec, type SpecModel, tokenLifetimesOf } from '@mall-api/spec-model';
import { apiFacts, scopesOutside } from '../api-facts.js';
import type { Sleep } from '../hooks/pacing.js';
import type { Credentials } from './conformance-client.js';
import { mockClockSleep } from './mock-clock.js';
import type { ConformanceOptions } from './run-conformance.js';

/** A started local target. */
export interface LocalTarget {
  readonly baseUrl: string;
  /** The server's own URL (no mall) and the mock's OAuth authority, for a Dredd run against it. */
  readonly served: { readonly url: string; readonly authority: OAuthAuthority };
  readonly credentials: Credentials;
  readonly sleep: Sleep;
  close(): Promise<void>;
}

const mall = 'conformance';

/** The access-token lifetime the spec states (`x-token-lifetimes` of an oauth2 scheme), in seconds. */
async function accessTokenSeconds(api: ApiName): Promise<number | undefined> {
  return tokenLifetimesOf((await loadSpec(api)).document)?.accessTokenSeconds;
}

/** What may differ from our plain sandbox mock (the mutant test serves broken copies). */
export interface LocalTargetOptions {
  /** The document the mock serves instead of the API's bundle. */
  readonly spec?: SpecModel;
  /** Puts something in front of the mock (at its URL), answering at the URL it returns. */
  readonly front?: (mockUrl: string) => Promise<{ readonly url: string; close(): Promise<void> }>;
}

/** The options of a whole conformance run of `api` against a local target, its rate limit spent. */
export const localRunOptions = (api: ApiName, target: LocalTarget) =>
  ({
    api,
    baseUrl: target.baseUrl,
    credentials: target.credentials,
    sleep: target.sleep,
    spendRateLimit: true,
  }) satisfies ConformanceOptions;

/** Starts our sandbox mock of `api` for a conformance run. */
export async function startLocalTarget(api: ApiName, options: LocalTargetOptions = {}): Promise<LocalTarget> {
  const { demoCollectionCredentials, issueDemoTokens, startMockServers } = await import(
    '@mall-api/mock-server'
  );
  let shiftMs = 0;
  const served = await startMockServers({
    apis: [api],
    ports: { [api]: 0 },
    sandbox: { store: 'memory', seed: 1 },
    clock: () => Date.now() + shiftMs,
    ...(options.spec ? { specs: { [api]: options.spec } } : {}),
  });
  const [mock] = served.mocks;
  if (!mock) throw new Error(`the ${api} mock did not start`);
  const front = options.front ? await options.front(mock.url) : { url: mock.url, close: async () => {} };
  const baseUrl = `${front.url}/__mall/${mall}`;
  const close = async () => {
    await front.close();
    await served.close();
  };
  const common = {
    baseUrl,
    served: { url: front.url, authority: served.authority },
    sleep: mockClockSleep(baseUrl),
    close,
  };
  const facts = await apiFacts(api);
  if (facts.auth === 'basic') {
    const [demo, limited] = demoCollectionCredentials(options.spec ?? (await loadSpec(api)));
    if (!demo) throw new Error('the mock has no demo credentials');
    return {
      ...common,
      credentials: {
        authorization: basicAuthorization(demo.clientId, demo.clientSecret),
        ...(limited
          ? {
              forbidden: basicAuthorization(limited.clientId, limited.clientSecret),
              forbiddenScopes: limited.scopes,
            }
          : {}),
      },
    };
  }
  const outside = await scopesOutside(api);
  const bearer = async (scopes: readonly string[], forMall = mall) =>
    `Bearer ${(await issueDemoTokens(served.authority, [...scopes], forMall)).access_token}`;
  const lifetime = await accessTokenSeconds(api);
  let expired: string | undefined;
  if (lifetime !== undefined) {
    shiftMs = -(lifetime + 60) * 1000;
    expired = await bearer(facts.scopes);
    shiftMs = 0;
  }
  return {
    ...common,
    credentials: {
      authorization: await bearer([...facts.scopes, ...outside]),
      mallId: mall,
      forbidden: await bearer(outside),
      otherMall: await bearer(facts.scopes, `${mall}-other`),
      expired,
    },
  };
}
