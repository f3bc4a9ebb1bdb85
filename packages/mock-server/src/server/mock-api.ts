// One mock API: its stages, in the order every request goes through them, built in one visible
// list below (health, metrics, control and the OAuth endpoints are branches of it). Each stage
// answers or passes on the next, narrower phase (pipeline/), so the types keep the order; what a
// stage needs from the spec comes from the API compiled once (compiled-api.ts). Every answer carries
// the rate-limit headers and every error the API's envelope; running a request through the list,
// journalling, counting and logging it is request-handling.ts's job.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServerLimiter, type ServerLimiter, UncountedStore } from '@mall-api/rate-limit';
import type { SandboxGateway } from '@mall-api/sandbox/protocol';
import { type ApiSpecs, loadSpec, type OperationEntry, type SpecModel } from '@mall-api/spec-model';
import { createControlBranch, isControlRequest } from '../control/control-api.js';
import type { ControlAccess } from '../control/control-guard.js';
import { delayBound } from '../control/control-rules.js';
import { clientAddressOf } from '../http/client-address.js';
import type { ApiName, ApiProfile } from '../identity/api-profiles.js';
import type { CredentialSources } from '../identity/authentication.js';
import { createBasicGuard } from '../identity/basic-guard.js';
import { createMockMalls, type MockMalls } from '../malls/mock-malls.js';
import {
  createMockMetrics,
  isMetricsRequest,
  type MockMetrics,
  metricsBranch,
} from '../metrics/mock-metrics.js';
import type { ClientCredential } from '../oauth/demo-credentials.js';
import type { OAuthAuthority } from '../oauth/oauth-authority.js';
import { type CompiledApi, servedApi } from '../operations/compiled-api.js';
import type { Arrival, Metered, Routed } from '../pipeline/phases.js';
import { pipeline } from '../pipeline/stage.js';
import type { LogFormat } from '../process/log-lines.js';
import { answer } from '../stages/answer.js';
import { apiVersion } from '../stages/api-version.js';
import { corsPreflight, corsResponseHeaders } from '../stages/cors.js';
import { faults, type Sleep } from '../stages/faults.js';
import { type Health, healthBranch, isHealthRequest } from '../stages/health.js';
import { httpsOnly } from '../stages/https-only.js';
import { identifyCaller } from '../stages/identify-caller.js';
import { knownOperation } from '../stages/known-operation.js';
import { losingAnswers } from '../stages/lost-answer.js';
import { mallClock } from '../stages/mall-clock.js';
import { mallInUse } from '../stages/mall-in-use.js';
import { isOAuthRequest, oauthEndpoints } from '../stages/oauth-endpoints.js';
import { rateLimit } from '../stages/rate-limit.js';
import { readBody } from '../stages/read-body.js';
import { requireCredentials } from '../stages/require-credentials.js';
import { scope } from '../stages/scope.js';
import { validateRequest } from '../stages/validate-request.js';
import { handleRequest, type RequestHandling } from './request-handling.js';

/** Options for one mock API. */
export interface MockApiOptions {
  /** Basic credentials accepted (collection API). Defaults to the demo credentials, with the scopes of the spec served. */
  credentials?: readonly ClientCredential[];
  /** The OAuth authority whose tokens the admin and analytics APIs accept (and which admin serves). */
  authority?: OAuthAuthority;
  /** One rate limiter for every mall; by default each mall has the API's own limit in the malls' stores (memory or Redis), on its clock. */
  limiter?: ServerLimiter;
  /** `off` counts no call and refuses none, answers keeping the limit headers of the spec's limit (load tests only; default `on`). Ignored when `limiter` is given. */
  rateLimit?: 'on' | 'off';
  /** Per-mall state shared by the mocks of a process, or of every replica on one Redis (clocks, journal, faults, buckets, sandbox malls). */
  malls?: MockMalls;
  /** Who may call the control API (`/__mock/`): loopback only by default. */
  control?: ControlAccess;
  /** The largest API request body read, in bytes (default 1 MiB); a larger one is a 413 before it is read. */
  maxBodyBytes?: number;
  /**
   * The proxies whose `X-Forwarded-For` is believed (addresses, CIDRs, `loopback`, …): the client
   * a rate limit counts is the right-most hop that is not one of them (client-address.ts). Default:
   * none, the header is ignored.
   */
  trustProxy?: readonly string[];
  /** Host names the server is reachable under besides loopback and `*.localhost` (their subdomains too); the control API and the OAuth endpoints refuse any other `Host` (default: none). */
  publicHosts?: readonly string[];
  /** Called once per request with a log line that never contains credentials, tokens or the query. */
  log?: (line: string) => void;
  /** Called with the cause of every 500 (defaults to standard error). */
  logError?: (line: string) => void;
  /** `text` lines (default) or `json`: one JSON object per request and per error (see log-lines.ts). */
  logFormat?: LogFormat;
  /** The spec to serve (defaults to the API's bundle); tests pass a modified copy. Ignored when `compiled` is given. */
  spec?: SpecModel;
  /** The API compiled once at the composition root (`compileApi`); by default compiled here from `spec`. */
  compiled?: CompiledApi;
  /**
   * The spec of every API the process serves, whose operations control fault and journal filters
   * may name. Default: this API's spec and the shipped bundles of the others.
   */
  specs?: ApiSpecs;
  /** Sandbox mode without shared malls (a single gateway): operations it keeps state for are answered from it. */
  sandbox?: SandboxGateway;
  /** The readiness `/__health` and `/__ready` report (several APIs share one); without it the API does not answer them. */
  health?: Health;
  /** The process's metrics (several APIs share one), served at `/__metrics`; by default this API's own. */
  metrics?: MockMetrics;
  /** How injected delays wait (default: a timer); a test passes one that records them instead. */
  faultSleep?: Sleep;
}

/** A request handler for one API. */
export interface MockApi {
  readonly profile: ApiProfile;
  readonly operations: readonly OperationEntry[];
  /** The stage names in the order requests go through them. */
  readonly stages: readonly string[];
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

/** Builds the handler for one API from its compiled spec (compiled here unless given). */
export async function createMockApi(name: ApiName, options: MockApiOptions = {}): Promise<MockApi> {
  for (const [option, value] of [
    ['maxBodyBytes', options.maxBodyBytes],
    ['control.maxBodyBytes', options.control?.maxBodyBytes],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0))
      throw new Error(`${option} must be a positive number of bytes, got ${value}`);
  }
  const { api, specs } = await servedApi(name, options);
  const { profile, spec, runtime, limit } = api;
  if (profile.name !== name)
    throw new Error(`createMockApi('${name}') was given the compiled ${profile.name} API`);
  if (profile.auth === 'bearer' && !options.authority) {
    throw new Error(`the ${name} mock needs an OAuth authority to check bearer tokens`);
  }
  const sources: CredentialSources = {
    basic: createBasicGuard(options.credentials ?? api.demoCredentials),
    authority: options.authority,
  };
  const malls = options.malls ?? (await createMockMalls());
  const sandbox = options.sandbox ?? malls.sandbox;
  const limiter =
    options.limiter ??
    (options.rateLimit === 'off'
      ? createServerLimiter({ api: limit, store: new UncountedStore() })
      : undefined);
  // The stages after routing, shared by the API's operations and the OAuth endpoints' documented answers.
  const answering = pipeline<Metered & Routed>()
    .step(readBody(options.maxBodyBytes))
    .stepIf(api.versions && apiVersion(api.versions))
    .step(validateRequest(runtime))
    .step(
      faults(malls.faults, malls.touch, {
        maxDelayMs: delayBound(await loadSpec('control')),
        sleep: options.faultSleep,
      }),
    )
    .end(losingAnswers(answer({ runtime, sandbox })));
  const oauth =
    profile.servesOAuth && options.authority
      ? pipeline<Metered>()
          .check(oauthEndpoints(options.authority, options.publicHosts))
          .step(knownOperation)
          .join(answering)
      : undefined;
  const health = options.health && healthBranch(options.health);
  const control = await createControlBranch(malls, specs, options.control, options.publicHosts);
  const metrics = options.metrics ?? createMockMetrics({ malls });
  const scrape = metricsBranch(metrics, options.control, options.publicHosts);
  const stages = pipeline<Arrival>()
    .branchIf('health', isHealthRequest, health)
    .branch('metrics', isMetricsRequest, scrape)
    .branch('control', isControlRequest, control)
    .check(corsPreflight)
    .step(identifyCaller(sources))
    .step(mallInUse(malls.renew))
    .check(mallClock(malls.clocks))
    .step(
      rateLimit(
        limiter ? () => limiter : (mallId) => malls.limiter(limit, mallId),
        limit.countedPer ?? 'client-ip',
        clientAddressOf(options.trustProxy),
      ),
    )
    .checkIf(api.httpsOnly !== undefined ? httpsOnly(api.httpsOnly) : undefined)
    .branchIf('oauth-endpoints', isOAuthRequest, oauth)
    .step(requireCredentials)
    .step(knownOperation)
    .check(scope(api.oauth.scopeAliases))
    .join(answering);
  const outsideApi = new Set([...(health?.names ?? []), ...scrape.names, ...control.names]);
  const handling: RequestHandling = {
    profile,
    spec,
    stages,
    malls,
    metrics,
    outsideApi,
    unlogged: new Set([...(health?.names ?? []), ...scrape.names]),
    cors: corsResponseHeaders(limit),
    log: options.log,
    logError: options.logError ?? ((line: string) => process.stderr.write(`${line}\n`)),
    format: options.logFormat ?? 'text',
  };
  return {
    profile,
    operations: spec.operations,
    stages: stages.names,
    handle: (request, response) => handleRequest(handling, request, response),
  };
}
