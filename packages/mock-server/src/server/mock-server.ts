// Starts mock APIs on their TCP ports and stops them cleanly: the composition root. Each API is
// compiled once from its spec (compiled-api.ts) and feeds its mock, the one OAuth authority the APIs
// share (admin's tokens work on analytics) and the sandbox's fixture rules; in sandbox mode one set
// of sandbox malls (sandbox-loader.ts) serves every API. With `redis`, everything shared between
// requests lives in Redis (loaded only then), so replicas on one Redis act as one. A server bound
// off the loopback interface refuses to start without a control token. Listening and shutdown
// only: the behaviour of each API lives in mock-api.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMallClocks,
  deliveryTarget,
  type JournalLimits,
  type MallClocks,
  type MallLimits,
} from '@mall-api/mall-state';
import type { RedisState } from '@mall-api/mall-state/redis';
import type { SandboxMallsGateway } from '@mall-api/sandbox/protocol';
import { type ApiSpecs, loadSpec, loadSpecs, type SpecModel, webhookDeliveryOf } from '@mall-api/spec-model';
import { deliveryDelayBound } from '../control/control-rules.js';
import {
  type EventDelivery,
  type EventDeliveryOptions,
  startEventDelivery,
} from '../events/event-delivery.js';
import { isLoopbackAddress } from '../http/host-rule.js';
import { answerMalformedRequests, refuseWithoutHost } from '../http/malformed-http.js';
import { type ApiName, apiProfiles } from '../identity/api-profiles.js';
import { createMockMalls, type MockMalls } from '../malls/mock-malls.js';
import { createMockMetrics } from '../metrics/mock-metrics.js';
import { demoOAuthApp } from '../oauth/demo-credentials.js';
import { createOAuthAuthority, type OAuthAuthority } from '../oauth/oauth-authority.js';
import { type OAuthSettings, oauthSettingsOf } from '../oauth/oauth-settings.js';
import type { OAuthStore } from '../oauth/oauth-store.js';
import { type CompiledApi, compileApi, servedApi } from '../operations/compiled-api.js';
import { messageLine, requestLine } from '../process/log-lines.js';
import { createHealth, type ReadinessCheck } from '../stages/health.js';
import { createMockApi, type MockApiOptions } from './mock-api.js';
import { loadSandbox, type SandboxOptions } from './sandbox-loader.js';

/** Where and how to serve one API. */
export interface ServeOptions extends Omit<MockApiOptions, 'sandbox'> {
  /**
   * Sandbox mode: answer from a stateful sandbox mall (in memory, or SQLite in `store.dataDir`),
   * each new mall seeded with the sample mall of `seed` when given. Open sandbox malls are shared as they are.
   */
  sandbox?: SandboxOptions | SandboxMallsGateway;
  api: ApiName;
  /** TCP port; 0 picks a free one. Defaults to the API's own port. */
  port?: number;
  /** Defaults to 127.0.0.1. Any other than a loopback address needs `control.token`. */
  host?: string;
}

/** A running mock API. */
export interface RunningMock {
  readonly api: ApiName;
  /** e.g. `http://127.0.0.1:4010` */
  readonly url: string;
  readonly port: number;
  /**
   * Stops accepting connections, lets requests in flight finish for up to `graceMs` (default 0:
   * none), then closes every connection.
   */
  close(graceMs?: number): Promise<void>;
}

/** Starts one mock API and resolves once it is listening. */
export async function startMockServer(options: ServeOptions): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackAddress(host) && options.control?.token === undefined) {
    throw new Error(
      `listening on ${host} (off the loopback interface) needs a control token: anyone who reaches the port could rewrite the malls`,
    );
  }
  const { sandbox: given, authority } = options;
  const clocks = options.malls?.clocks ?? createMallClocks();
  const { api: compiled, specs } = await servedApi(options.api, options);
  const { sandbox, own: ownSandbox } = await sandboxOf(given, async (choice) =>
    loadSandbox(
      choice,
      clocks,
      compiled.profile.name === 'admin' ? compiled : await compileApi('admin', specs.admin),
      specs,
    ),
  );
  let mock: Awaited<ReturnType<typeof createMockApi>>;
  const health = options.health ?? createHealth(sandbox?.ready);
  // The malls made here (their expiry timer stops on `close`), as opposed to malls the caller passed.
  let ownMalls: MockMalls | undefined;
  try {
    ownMalls = options.malls
      ? undefined
      : await createMockMalls({
          clocks,
          sandbox,
          revokeGrants: authority && ((mallId: string) => authority.revokeMall(mallId)),
        });
    mock = await createMockApi(options.api, {
      ...options,
      health,
      compiled,
      specs,
      malls: options.malls ?? (ownMalls as MockMalls),
      sandbox,
    });
  } catch (error) {
    ownMalls?.close();
    await ownSandbox?.close();
    throw error;
  }
  let stopping = false;
  // Node's own Host check answers without the envelope: refuseWithoutHost answers instead.
  const server: Server = createServer({ requireHostHeader: false }, (request, response) => {
    // While stopping, each connection closes once its answer is sent (no keep-alive reuse).
    response.once('finish', () => {
      if (stopping) server.closeIdleConnections();
    });
    if (!refuseWithoutHost(request, response)) void mock.handle(request, response);
  });
  // What the parser refuses has no method or path worth logging: the line names the status only.
  answerMalformedRequests(server, (status) =>
    options.log?.(
      requestLine(
        options.logFormat ?? 'text',
        { api: options.api, method: undefined, url: undefined },
        status,
        0,
      ),
    ),
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      // The listen error is the one to report; the store closes as well as it can.
      Promise.resolve(ownSandbox?.close())
        .catch(() => undefined)
        .then(() => reject(error));
    });
    server.listen(options.port ?? apiProfiles[options.api].defaultPort, host, () => resolve());
  });
  if (!options.health) health.markReady();
  const { port } = server.address() as AddressInfo;
  return {
    api: options.api,
    port,
    url: `http://${host}:${port}`,
    close: (graceMs = 0) =>
      new Promise<void>((resolve, reject) => {
        stopping = true;
        health.markStopping();
        ownMalls?.close();
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close((error) => {
          clearTimeout(force);
          Promise.resolve(ownSandbox?.close()).then(() => (error ? reject(error) : resolve()), reject);
        });
        server.closeIdleConnections();
        if (graceMs === 0) server.closeAllConnections();
      }),
  };
}

/** The sandbox malls to serve: the open ones given (their opener closes them), or `own` ones opened here. */
async function sandboxOf(
  given: SandboxOptions | SandboxMallsGateway | undefined,
  open: (options: SandboxOptions) => Promise<SandboxMallsGateway>,
): Promise<{ sandbox?: SandboxMallsGateway; own?: SandboxMallsGateway }> {
  if (!given || 'handles' in given) return given ? { sandbox: given } : {};
  const own = await open(given);
  return { sandbox: own, own };
}

/** Options for serving several APIs together. */
export interface ServeManyOptions
  extends Omit<MockApiOptions, 'limiter' | 'sandbox' | 'malls' | 'spec' | 'compiled' | 'specs'> {
  /** The spec to serve per API (default: each API's bundle); tests pass modified copies. */
  specs?: Partial<Record<ApiName, SpecModel>>;
  /**
   * Sandbox mode: the sandbox malls shared by every API served (see {@link ServeOptions.sandbox}).
   * Open sandbox malls are used as they are and stay open on `close` (their opener closes them).
   */
  sandbox?: SandboxOptions | SandboxMallsGateway;
  apis?: readonly ApiName[];
  host?: string;
  /** Port per API; 0 picks a free one. Defaults to each API's own port. */
  ports?: Partial<Record<ApiName, number>>;
  /** Base time of every mall's clock (tests pass a simulated one); the OAuth authority and the buckets follow it. */
  clock?: () => number;
  /** How long `close` lets requests in flight finish, in milliseconds (default 0). */
  graceMs?: number;
  /** The cap on malls in use and their idle expiry (defaults: 200 malls, one hour). */
  mallLimits?: MallLimits;
  /** The clock idle expiry reads (default: Redis's with `redis`, else this process's); tests pass a simulated one. */
  expiryClock?: () => number;
  /** The bounds of the request journal (defaults: 10,000 entries and 16 MiB per mall, 128 MiB in all). */
  journalLimits?: JournalLimits;
  /**
   * Sandbox mode: how the malls' events are delivered (the default receiver and its webhook key,
   * whether any host may receive, timers and retries). Without a receiver, none is sent until one
   * is registered for a mall through the control API.
   */
  events?: EventDeliveryOptions;
  /**
   * Keep everything shared between requests in Redis (`redis://…`), so several processes on one
   * Redis act as one; `prefix` starts every key (default `mall-api-mock:`, one per deployment).
   * Default: this process's memory.
   */
  redis?: string | { readonly url: string; readonly prefix?: string };
}

/** The state shared in Redis, and the OAuth store over it on the malls' clocks. */
interface SharedState extends RedisState {
  readonly oauthStore: (clocks: MallClocks) => OAuthStore;
}

/**
 * Opens the shared state in Redis; throws a clear error when ioredis is not installed. Every
 * module that loads ioredis is imported here, only when Redis is asked for.
 */
async function openRedis(
  redis: NonNullable<ServeManyOptions['redis']>,
  journal: JournalLimits | undefined,
  log: ((line: string) => void) | undefined,
): Promise<SharedState> {
  let module: typeof import('@mall-api/mall-state/redis');
  let oauth: typeof import('../oauth/redis-oauth-store.js');
  try {
    [module, oauth] = await Promise.all([
      import('@mall-api/mall-state/redis'),
      import('../oauth/redis-oauth-store.js'),
    ]);
  } catch (error) {
    throw new Error(
      `--redis needs the optional package ioredis (npm install ioredis): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const connection = typeof redis === 'string' ? { url: redis } : redis;
  const state = await module.openRedisState({ ...connection, log }, journal);
  return Object.assign(state, {
    oauthStore: (clocks: MallClocks) => oauth.redisOAuthStore(state.connection, clocks),
  });
}

/**
 * What `/__ready` asks beyond the process's own state: that the stores shared with other replicas
 * answer (the sandbox's database, Redis); undefined when the process shares none.
 */
function readinessOf(
  sandbox: SandboxMallsGateway | undefined,
  redis: RedisState | undefined,
): ReadinessCheck | undefined {
  const sandboxReady = sandbox?.ready.bind(sandbox);
  if (!sandboxReady && !redis) return undefined;
  return async () => (redis?.ready() ?? true) && ((await sandboxReady?.()) ?? true);
}

/** Compiles every API a process serves (the OAuth authority needs admin's and analytics' even when not served). */
async function compileApis(served: readonly ApiName[], specs: ApiSpecs): Promise<Map<ApiName, CompiledApi>> {
  const names = [...new Set<ApiName>([...served, 'admin', 'analytics'])];
  const compiled = await Promise.all(names.map((name) => compileApi(name, specs[name])));
  return new Map(compiled.map((api) => [api.profile.name, api]));
}

/** Starts several mock APIs that share one OAuth authority (created with the demo app unless given). */
export async function startMockServers(options: ServeManyOptions = {}): Promise<{
  mocks: RunningMock[];
  authority: OAuthAuthority;
  /** The authority's settings, from the compiled admin and analytics specs (the demo app holds every offered scope). */
  oauth: OAuthSettings;
  malls: MockMalls;
  sandbox: SandboxMallsGateway | undefined;
  /** The delivery of the sandbox malls' events (sandbox mode only). */
  events: EventDelivery | undefined;
  close(): Promise<void>;
}> {
  const redisState = options.redis
    ? await openRedis(options.redis, options.journalLimits, (message) =>
        // An outage of Redis and its end, in the log format of every other line.
        (options.logError ?? ((line: string) => process.stderr.write(`${line}\n`)))(
          messageLine(options.logFormat ?? 'text', message, { level: 'warn', event: 'store' }),
        ),
      )
    : undefined;
  const clocks = createMallClocks(options.clock, redisState?.clockOffsets);
  const served = options.apis ?? (Object.keys(apiProfiles) as ApiName[]);
  let specs: ApiSpecs;
  let apis: Map<ApiName, CompiledApi>;
  let oauth: OAuthSettings;
  let authority: OAuthAuthority;
  let sandbox: SandboxMallsGateway | undefined;
  let ownSandbox: SandboxMallsGateway | undefined;
  let malls: MockMalls;
  let events: EventDelivery | undefined;
  try {
    specs = await loadSpecs(options.specs);
    apis = await compileApis(served, specs);
    oauth = oauthSettingsOf(
      [...apis.values()].filter((api) => api.profile.auth === 'bearer').map((api) => api.oauth),
    );
    authority =
      options.authority ??
      createOAuthAuthority({
        apps: [demoOAuthApp(oauth)],
        settings: oauth,
        clock: (mallId) => clocks.now(mallId),
        store: redisState?.oauthStore(clocks),
      });
    const admin = apis.get('admin') as CompiledApi;
    ({ sandbox, own: ownSandbox } = await sandboxOf(options.sandbox, (choice) =>
      loadSandbox(choice, clocks, admin, specs, redisState?.mallVersions),
    ));
    events = sandbox
      ? await startEventDelivery(
          sandbox,
          {
            policy: webhookDeliveryOf(specs.admin.document),
            maxDelayMs: deliveryDelayBound(await loadSpec('control')),
          },
          {
            // The malls' fault rules, once they exist (a delivery before that has none).
            faultOf: async (mallId, eventNo) =>
              (
                await malls?.faults.take(mallId, {
                  api: deliveryTarget,
                  eventNo,
                  operationId: '',
                  method: 'POST',
                  path: '',
                })
              )?.action,
            ...options.events,
          },
        )
      : undefined;
    malls = await createMockMalls({
      clocks,
      revokeGrants: (mallId) => authority.revokeMall(mallId),
      sandbox,
      events,
      limits: options.mallLimits,
      now: options.expiryClock,
      journal: options.journalLimits,
      stores: redisState?.stores,
    });
  } catch (error) {
    await events?.close();
    await ownSandbox?.close();
    await redisState?.close();
    throw error;
  }
  const mocks: RunningMock[] = [];
  const readiness = readinessOf(sandbox, redisState);
  const health = createHealth(readiness);
  const metrics = createMockMetrics({ malls, storesReady: readiness });
  const closeAll = async () => {
    malls.close();
    await Promise.all(mocks.map((mock) => mock.close(options.graceMs)));
    await events?.close();
    await ownSandbox?.close();
    await redisState?.close();
  };
  try {
    for (const api of served) {
      mocks.push(
        await startMockServer({
          ...options,
          // Opened once above, the sandbox reaches every mock through `malls`.
          sandbox: undefined,
          api,
          compiled: apis.get(api) as CompiledApi,
          specs,
          authority,
          malls,
          health,
          metrics,
          port: options.ports?.[api],
        }),
      );
    }
  } catch (error) {
    await closeAll();
    throw error;
  }
  health.markReady();
  return { mocks, authority, oauth, malls, sandbox, events, close: closeAll };
}
