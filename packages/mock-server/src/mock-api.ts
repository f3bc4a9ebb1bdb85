// One mock API: its stages, in the order every request goes through them. This file is the one
// place that shows the order, every way in included:
//   [health (when given): /__health, /__ready] → [metrics: /__metrics, metrics/mock-metrics.ts] →
//   [control: /__mock/…, control/control-api.ts] →
//   CORS preflight → identify caller → mall in use → mall clock → rate limit → HTTPS only (APIs the spec marks) →
//   [OAuth endpoints (admin): oauth-endpoints → known operation → the answering stages] →
//   require credentials → known operation → scope → the answering stages:
//   read body → API version (APIs with date versions) → validate request → faults → answer
//   (whose answer a lost-answer fault may take after it is made: pipeline/stages/lost-answer.ts)
// Everything a stage needs from the spec comes from the API compiled once (compiled-api.ts). The
// request is parsed once into an arrival (pipeline/phases.ts); each stage answers or passes on the
// next, narrower phase (pipeline/stage.ts, pipeline/stages/), so the types keep the order; the
// health, control and OAuth endpoints are branches of the one list. Every answer of the API
// carries its rate-limit headers and every error the API's envelope, and every one, 500 and 503
// included, is written to the request journal of its mall (a lost answer with the status the mall
// answered and how it was lost, a refusal with the request rules that refused it; the health and
// control branches answer outside the API: no journal entry, no CORS or rate-limit headers; so
// does the metrics branch, which counts every other answer by API, operation and status). A shared
// state store (Redis)
// that cannot answer is a 503 with the envelope (its connection logs the cause once per outage);
// any other unexpected failure is logged with its cause and answered with a bare 500 envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StoreUnavailableError, storeUnavailableMessage } from '@mall-api/mall-state';
import { createServerLimiter, type ServerLimiter, UncountedStore } from '@mall-api/rate-limit';
import type { SandboxGateway } from '@mall-api/sandbox/protocol';
import { type ApiSpecs, loadSpec, type OperationEntry, type SpecModel } from '@mall-api/spec-model';
import type { ApiName, ApiProfile } from './api-profiles.js';
import type { CredentialSources } from './authentication.js';
import { createBasicGuard } from './basic-guard.js';
import { clientAddressOf } from './client-address.js';
import { type CompiledApi, servedApi } from './compiled-api.js';
import { createControlBranch, isControlRequest } from './control/control-api.js';
import type { ControlAccess } from './control/control-guard.js';
import { delayBound } from './control/control-rules.js';
import { corsPreflight, corsResponseHeaders } from './cors.js';
import type { ClientCredential } from './demo-credentials.js';
import { type Health, healthBranch, isHealthRequest } from './health.js';
import { abortedLine, errorLine, type LogFormat, requestLine } from './log-lines.js';
import { createMockMalls, type MockMalls } from './malls/mock-malls.js';
import {
  createMockMetrics,
  isMetricsRequest,
  type MockMetrics,
  metricsBranch,
} from './metrics/mock-metrics.js';
import type { OAuthAuthority } from './oauth/oauth-authority.js';
import {
  type Arrival,
  type Metered,
  mallReached,
  parseArrival,
  type Reached,
  type Routed,
} from './pipeline/phases.js';
import { errorReply, type Reply, sendReply } from './pipeline/reply.js';
import { pipeline, StageFailure } from './pipeline/stage.js';
import { answer } from './pipeline/stages/answer.js';
import { apiVersion } from './pipeline/stages/api-version.js';
import { faults, type Sleep } from './pipeline/stages/faults.js';
import { httpsOnly } from './pipeline/stages/https-only.js';
import { identifyCaller } from './pipeline/stages/identify-caller.js';
import { knownOperation } from './pipeline/stages/known-operation.js';
import { losingAnswers } from './pipeline/stages/lost-answer.js';
import { mallClock } from './pipeline/stages/mall-clock.js';
import { mallInUse } from './pipeline/stages/mall-in-use.js';
import { isOAuthRequest, oauthEndpoints } from './pipeline/stages/oauth-endpoints.js';
import { rateLimit } from './pipeline/stages/rate-limit.js';
import { readBody } from './pipeline/stages/read-body.js';
import { requireCredentials } from './pipeline/stages/require-credentials.js';
import { scope } from './pipeline/stages/scope.js';
import { validateRequest } from './pipeline/stages/validate-request.js';
import { RequestAbortedError } from './request-body.js';

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
    ...(options.authority ? { authority: options.authority } : {}),
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
        ...(options.faultSleep ? { sleep: options.faultSleep } : {}),
      }),
    )
    .end(losingAnswers(answer({ runtime, ...(sandbox ? { sandbox } : {}) })));
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
  // The stages a request has passed the faults stage by when it is answered there.
  const markedBefore = new Set(['faults', 'answer']);
  // The stages of the branches that answer outside the API (not journaled, not counted).
  const outsideApi = new Set([...(health?.names ?? []), ...scrape.names, ...control.names]);
  const unlogged = new Set([...(health?.names ?? []), ...scrape.names]);
  const cors = corsResponseHeaders(limit);
  const journal = (
    reached: Reached,
    status: number,
    answeredBy: string,
    started: number,
    reply?: Pick<Reply, 'refusedBy' | 'lostAnswer'>,
  ) => {
    if (outsideApi.has(answeredBy)) return undefined;
    const mallId = mallReached(reached);
    return malls.journal.record(mallId, {
      receivedAtMs: malls.clocks.now(mallId),
      api: name,
      method: reached.method,
      path: reached.path,
      operationId: reached.route?.operation.operationId ?? null,
      query: reached.query,
      body: reached.body ?? null,
      status: reply?.lostAnswer?.status ?? status,
      answeredBy,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...(reply?.refusedBy === undefined ? {} : { refusedBy: reply.refusedBy }),
      ...(reply?.lostAnswer ? { lostAnswer: reply.lostAnswer.by } : {}),
    });
  };
  const logError = options.logError ?? ((line: string) => process.stderr.write(`${line}\n`));
  const format = options.logFormat ?? 'text';

  return {
    profile,
    operations: spec.operations,
    stages: stages.names,
    async handle(request, response) {
      const started = performance.now();
      let status = 500;
      let answeredBy = '';
      let operationId: string | null = null;
      let aborted = false;
      let limitHeaders: Record<string, string> = {};
      try {
        const { reply, stage, reached } = await stages.run(parseArrival(profile, spec, request));
        answeredBy = stage;
        operationId = reached.route?.operation.operationId ?? null;
        limitHeaders = reply.limitHeaders ?? reached.limitHeaders ?? {};
        status = reply.status;
        // Only an authenticated request that was answered (or reached the answer) puts its mall in
        // use: a refused one (401, 403, 429, 422 before the answer) creates none (mall-roster.ts).
        // The faults stage marked it before the answer's work; one answered before that stage (an
        // OAuth endpoint) is marked here, with its journal entry (on Redis both leave in one write);
        // so is a read's mark, which the faults stage left under way (`marked`).
        const inUse = reached.caller?.ok && status < 400 && !markedBefore.has(stage);
        await Promise.all([
          journal(reached, status, stage, started, reply),
          inUse && malls.touch(mallReached(reached)),
          reached.marked,
        ]);
        // Browsers send Origin on cross-origin requests; other clients need no CORS headers.
        const api = request.headers.origin && !outsideApi.has(stage);
        sendReply(response, reply, api ? { ...cors, ...limitHeaders } : limitHeaders);
      } catch (thrown) {
        // A stage that threw is reported with the phase it had reached (its limit headers still apply).
        const error = thrown instanceof StageFailure ? thrown.cause : thrown;
        if (thrown instanceof StageFailure) limitHeaders = thrown.reached.limitHeaders ?? {};
        // A client that left mid-body gets nothing and is logged as aborted, not as a 500.
        aborted = error instanceof RequestAbortedError;
        if (aborted) return void response.destroy();
        const unavailable = error instanceof StoreUnavailableError;
        status = unavailable ? 503 : 500;
        if (thrown instanceof StageFailure) operationId = thrown.reached.route?.operation.operationId ?? null;
        if (unavailable) metrics.storeUnavailable(profile.name);
        // The cause goes to the log (never a header or body of the request); the client gets the
        // envelope. A store outage is logged once by its connection, not once per request.
        if (!unavailable)
          logError(errorLine(format, { api: profile.name, method: request.method, url: request.url }, error));
        const kind = error instanceof Error ? error.name : 'Error';
        const reply = unavailable
          ? errorReply(503, storeUnavailableMessage)
          : errorReply(500, `An internal error occurred (${kind}).`);
        if (thrown instanceof StageFailure)
          await Promise.resolve(thrown)
            .then(({ reached, stage }) => journal(reached, status, stage, started))
            .catch((failure: unknown) => {
              // The store of the journal may be the one that is down: that outage is logged already.
              if (!(failure instanceof StoreUnavailableError))
                logError(
                  errorLine(format, { api: profile.name, method: request.method, url: request.url }, failure),
                );
            });
        if (!response.headersSent) sendReply(response, reply, limitHeaders);
        else response.destroy();
      } finally {
        const logged = { api: profile.name, method: request.method, url: request.url };
        const ms = performance.now() - started;
        if (!aborted && !outsideApi.has(answeredBy))
          metrics.observe(profile.name, operationId, status, ms / 1000);
        // A balancer's health probes would drown the log: they are not logged.
        if (!unlogged.has(answeredBy))
          options.log?.(aborted ? abortedLine(format, logged, ms) : requestLine(format, logged, status, ms));
      }
    },
  };
}
