// The validating proxy (`mall-api-mock proxy`), after Prism's proxy mode: forwards every request to
// a real service, never changing it, and checks the request with the mock's own stages and the
// answer with the answer checks. What it finds goes to the mall's journal (`violations`) and the
// log, never credentials; with a recorder, 200 answers are kept as a sandbox fixture. The control
// API (`/__mock/`) is served as by the mock.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Json, loadSpecs, type SpecModel } from '@mall-api/spec-model';
import { controlPrefix, createControlBranch } from '../control/control-api.js';
import type { ControlAccess } from '../control/control-guard.js';
import { type ErrorEnvelope, errorEnvelope, type Violation } from '../http/error-envelope.js';
import { readBodyText, tooLargeMessage } from '../http/request-body.js';
import { type ApiName, apiProfiles } from '../identity/api-profiles.js';
import { createMockMalls, type MockMalls } from '../malls/mock-malls.js';
import { compileApi } from '../operations/compiled-api.js';
import { type Arrival, mallReached, parseArrival, type Reached } from '../pipeline/phases.js';
import { bodyFailureReply, type Reply, sendReply } from '../pipeline/reply.js';
import { pipeline } from '../pipeline/stage.js';
import { knownOperation } from '../stages/known-operation.js';
import { defaultApiBodyLimit, readBody } from '../stages/read-body.js';
import { validateRequest } from '../stages/validate-request.js';
import { createAnswerChecks } from './answer-checks.js';
import type { FixtureRecorder } from './fixture-recorder.js';

/** Options of {@link startValidatingProxy}. */
export interface ValidatingProxyOptions {
  readonly api: ApiName;
  /** The real service's base URL (`https://yourmall.cafe24api.com`). */
  readonly target: string;
  /** TCP port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Defaults to 127.0.0.1. */
  readonly host?: string;
  /** The spec to check against (default: the API's bundle). */
  readonly spec?: SpecModel;
  /** Who may call the control API. */
  readonly control?: ControlAccess;
  /** The largest request body read and forwarded, in bytes (default 1 MiB); over it is a 413. */
  readonly maxBodyBytes?: number;
  /** Receives one line per request and one per violation (never a header or a body). */
  readonly log?: (line: string) => void;
  /** Keeps 200 answers as fixtures. */
  readonly recorder?: FixtureRecorder;
}

/** A running proxy. */
export interface RunningProxy {
  readonly url: string;
  /** The journal (and the rest of the per-mall state the control API serves). */
  readonly malls: MockMalls;
  close(): Promise<void>;
}

const hopByHop = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
]);

/** What a stage's answer says is wrong with the request. */
function requestViolations(reply: Reply): string[] {
  const error = (reply.body as Partial<ErrorEnvelope> | undefined)?.error;
  const violations = (error?.more_info.violations ?? []) as Violation[];
  return violations.length > 0
    ? violations.map((v) => `request ${v.location} ${v.name}: ${v.message}`)
    : [`request: ${error?.message ?? `refused with ${reply.status}`}`];
}

/** The body to forward (UTF-8 text): as it came, or the one the stages parsed re-serialized (JSON or a form). */
function forwardedBody(reached: Reached, raw: string | undefined): string | undefined {
  if (raw !== undefined) return raw.length > 0 ? raw : undefined;
  if (reached.body === undefined) return undefined;
  return /application\/x-www-form-urlencoded/i.test(reached.request.headers['content-type'] ?? '')
    ? new URLSearchParams(reached.body as Record<string, string>).toString()
    : JSON.stringify(reached.body);
}

/** Starts the proxy; resolves once it listens. */
export async function startValidatingProxy(options: ValidatingProxyOptions): Promise<RunningProxy> {
  const profile = apiProfiles[options.api];
  // The served spec, and the others' bundles, whose operations control filters may name.
  const specs = await loadSpecs({ [options.api]: options.spec });
  const spec = specs[options.api];
  const { runtime } = await compileApi(options.api, spec);
  const bodyLimit = options.maxBodyBytes ?? defaultApiBodyLimit;
  const checks = pipeline<Arrival>()
    .step(knownOperation)
    .step(readBody(bodyLimit))
    .step(validateRequest(runtime));
  const answers = createAnswerChecks(spec, options.api);
  const malls = await createMockMalls();
  const control = await createControlBranch(malls, specs, options.control);
  const target = options.target.replace(/\/$/, '');
  const log = options.log ?? (() => {});

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const arrival = parseArrival(profile, spec, request);
    if (request.url?.startsWith(controlPrefix)) {
      sendReply(response, (await control.run(arrival)).reply, {});
      return;
    }
    const started = performance.now();
    const checked = await checks.run(arrival);
    const reached: Reached = checked.reached;
    const violations = checked.reply ? requestViolations(checked.reply) : [];
    // A body the stages did not read (no route, or none declared) is forwarded as it came, within
    // the same limit: a larger one is refused with a 413 and never read into memory.
    const unread = !request.readableEnded;
    const raw = unread ? await readBodyText(request, bodyLimit) : undefined;
    if (unread && raw === undefined) {
      sendReply(response, bodyFailureReply({ status: 413, message: tooLargeMessage(bodyLimit) }), {});
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).flatMap(([name, value]) =>
        hopByHop.has(name) || value === undefined
          ? []
          : [[name, Array.isArray(value) ? value.join(', ') : value]],
      ),
    );
    const body = forwardedBody(reached, raw);
    const upstream = await fetch(`${target}${reached.path}${reached.url.search}`, {
      method: reached.method,
      headers,
      redirect: 'manual',
      ...(body === undefined || reached.method === 'GET' || reached.method === 'HEAD' ? {} : { body }),
    });
    const text = await upstream.text();
    let parsed: Json | undefined;
    try {
      parsed = text ? (JSON.parse(text) as Json) : undefined;
    } catch {
      parsed = undefined;
    }
    const operation = reached.route?.operation;
    if (operation) {
      violations.push(
        ...answers
          .problems(operation, { status: upstream.status, headers: upstream.headers, body: parsed })
          .map((p) => `answer ${p}`),
      );
      if (upstream.status === 200)
        options.recorder?.observe(mallReached(reached), operation, parsed, {
          path: reached.route?.pathParameters,
          query: reached.query,
        });
    }
    const mallId = mallReached(reached);
    await malls.journal.record(mallId, {
      receivedAtMs: malls.clocks.now(mallId),
      api: options.api,
      method: reached.method,
      path: reached.path,
      operationId: operation?.operationId ?? null,
      query: reached.query,
      body: reached.body ?? null,
      status: upstream.status,
      answeredBy: 'proxy',
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      violations,
    });
    log(
      `${options.api} proxy ${reached.method} ${reached.path} ${upstream.status} ${violations.length} violation(s)`,
    );
    for (const violation of violations) log(`  ${operation?.operationId ?? reached.path}: ${violation}`);
    const answerHeaders: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!hopByHop.has(name) && name !== 'content-encoding') answerHeaders[name] = value;
    });
    response.writeHead(upstream.status, answerHeaders).end(text);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // The cause goes to the log (no header or body of the request); the client gets the envelope.
      log(
        `${options.api} proxy 502 on ${request.method ?? '-'} ${(request.url ?? '').split('?')[0]}: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!response.headersSent)
        response
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify(errorEnvelope(502, 'The service behind the proxy did not answer.')));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    malls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
