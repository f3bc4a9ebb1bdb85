// The front layer of one mock API, composed in one visible place: OAuth endpoints (admin) →
// authentication → rate limit → HTTPS rule → 401 → routing → scope → body → validation (Prism
// plus cross-parameter rules) → sandbox handler (sandbox mode only) → documented response. Each
// stage is a small function that either answers or passes on; every answer carries the API's
// rate-limit headers and every error the API's envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServerLimiter, type ServerLimiter } from '@mall-api/rate-limit';
import type { SandboxMalls } from '@mall-api/sandbox';
import { type ApiName, type ApiProfile, apiProfiles } from './api-profiles.js';
import { authenticate, type CredentialSources, type Principal } from './authentication.js';
import { createBasicGuard } from './basic-guard.js';
import { bodyRuleViolations } from './body-rules.js';
import { clientAddress } from './client-address.js';
import { type ClientCredential, demoCollectionCredentials } from './demo-credentials.js';
import { type ErrorEnvelope, errorEnvelope, invalidParameterEnvelope } from './error-envelope.js';
import { mallFromHost } from './mall-from-host.js';
import type { OAuthAuthority } from './oauth/oauth-authority.js';
import { handleOAuthRequest, isOAuthPath } from './oauth/oauth-routes.js';
import { grantsScope } from './oauth/scope-names.js';
import { createOperationRuntime, type OperationRuntime } from './operation-runtime.js';
import { readPreference } from './preferences.js';
import { loadPreparedApi, type PreparedResponse, preparedFile, serializeBody } from './prepared-responses.js';
import type { PrismEngine } from './prism-engine.js';
import { readJsonBody } from './request-body.js';
import { answerFromSandbox } from './sandbox-adapter.js';
import {
  distDirectory,
  findOperation,
  indexOperations,
  type Json,
  loadBundledSpec,
  type OperationEntry,
} from './spec-document.js';

/** Options for one mock API. */
export interface MockApiOptions {
  /** Basic credentials accepted (collection API). Defaults to the demo credentials. */
  credentials?: readonly ClientCredential[];
  /** The OAuth authority whose tokens the admin and analytics APIs accept (and which admin serves). */
  authority?: OAuthAuthority;
  /** Rate limiter; defaults to the API's own limit on an in-memory store. */
  limiter?: ServerLimiter;
  /** Called once per request with a log line that never contains credentials or tokens. */
  log?: (line: string) => void;
  /**
   * Sandbox mode: operations with a sandbox handler are answered from this sandbox's stored data
   * (after every check of the front layer) instead of the prepared responses.
   */
  sandbox?: SandboxMalls;
}

/** A request handler for one API. */
export interface MockApi {
  readonly profile: ApiProfile;
  readonly operations: readonly OperationEntry[];
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The body already serialized (prepared responses); `body` is ignored when set. */
  prepared?: PreparedResponse;
}

interface Context {
  readonly profile: ApiProfile;
  readonly operations: readonly OperationEntry[];
  /** Prism's engine, created on first need (responses not prepared ahead). */
  readonly engine: () => Promise<PrismEngine>;
  readonly runtime: OperationRuntime;
  readonly document: Record<string, Json>;
  readonly sandbox: SandboxMalls | undefined;
}

const errorReply = (status: number, envelope: ErrorEnvelope): Reply => ({
  status,
  headers: {},
  body: envelope,
});
const notFound = (method: string, path: string) =>
  errorReply(404, errorEnvelope(404, `No API exists at ${method} ${path}. Check the endpoint URL.`));

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function queryRecord(search: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    query[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return query;
}

/** The caller of the OAuth endpoints, which need no access token. */
const oauthCaller: Principal = { clientId: 'oauth', scopes: [] };

/** Whether the request asks for a documented response by `Prefer: code=` or `__code`. */
function requestsDocumentedResponse(request: IncomingMessage, url: URL): boolean {
  const prefer = request.headers.prefer;
  const header = Array.isArray(prefer) ? prefer.join(', ') : prefer;
  return readPreference(header, new URLSearchParams(url.searchParams)).code !== undefined;
}

/** Routing, scope, body and validation for an authenticated caller. */
async function answerOperation(
  context: Context,
  principal: Principal,
  request: IncomingMessage,
  url: URL,
): Promise<Reply> {
  const method = request.method ?? 'GET';
  const operation = findOperation(context.operations, method, url.pathname);
  if (!operation) return notFound(method, url.pathname);
  const scope = operation.requiredScope;
  if (scope && scope !== 'none' && !grantsScope(principal.scopes, scope)) {
    const status = context.profile.missingScopeStatus;
    return errorReply(
      status,
      errorEnvelope(
        status,
        `The ${status === 401 ? 'client' : 'access token'} has no permission for this operation.`,
        {
          required_scope: scope,
        },
      ),
    );
  }
  let body: unknown;
  if (operation.bodyMediaTypes.length > 0) {
    const parsed = await readJsonBody(request, operation.bodyMediaTypes);
    if (!parsed.ok) return errorReply(400, errorEnvelope(400, parsed.message));
    body = parsed.value;
  }

  const prefer = request.headers.prefer;
  const preference = readPreference(Array.isArray(prefer) ? prefer.join(', ') : prefer, url.searchParams);
  const query = queryRecord(url.searchParams);
  const compiled = await context.runtime(operation);
  const askedForError = preference.code !== undefined && preference.code >= 400;
  if (!askedForError) {
    const violations = [
      ...compiled.validate({ path: url.pathname, query, headers: request.headers, body }),
      ...compiled.crossParameters(query),
      ...(body === undefined ? [] : bodyRuleViolations(operation.operationId, body)),
    ];
    if (violations.length > 0) return errorReply(422, invalidParameterEnvelope(violations));
  }
  if (context.sandbox && preference.code === undefined && preference.example === undefined) {
    const pathParameters = Object.fromEntries(
      Object.entries(operation.pathParameters(url.pathname)).map(([name, value]) => [
        name,
        decodeURIComponent(value),
      ]),
    );
    const answered = answerFromSandbox(context.sandbox, {
      api: context.profile.name,
      document: context.document,
      operation,
      pathParameters,
      query,
      body,
    });
    if (answered) return { ...answered, headers: {} };
  }
  const prepared = compiled.prepared(preference);
  if (prepared) return { status: prepared.status, headers: prepared.headers, body: undefined, prepared };
  // Anything not prepared (an unknown example name, say) goes to the engine as asked.
  const result = await (await context.engine()).handle(
    { method, path: url.pathname, query, headers: flattenHeaders(request), body },
    preference,
  );
  if (result.kind !== 'response') return notFound(method, url.pathname);
  return { status: result.status, headers: result.headers, body: result.body };
}

function send(response: ServerResponse, reply: Reply, limitHeaders: Record<string, string>): void {
  const headers: Record<string, string> = {};
  let contentType = reply.prepared?.contentType ?? 'application/json';
  for (const [name, value] of Object.entries(reply.headers)) {
    if (/^content-type$/i.test(name)) contentType = reply.prepared ? contentType : value;
    else if (!/^(content-length|x-ratelimit-|x-api-call-limit)/i.test(name)) headers[name] = value;
  }
  const payload = reply.prepared ? reply.prepared.payload : serializeBody(reply.body, contentType);
  response.writeHead(reply.status, {
    ...headers,
    ...limitHeaders,
    ...(payload ? { 'content-type': contentType } : {}),
    'content-length': Buffer.byteLength(payload),
  });
  response.end(payload);
}

/** Builds the handler for one API from its bundled spec. */
export async function createMockApi(name: ApiName, options: MockApiOptions = {}): Promise<MockApi> {
  const profile = apiProfiles[name];
  const { document, digest: specDigest } = await loadBundledSpec(profile.specFile);
  const operations = indexOperations(document);
  let engine: Promise<PrismEngine> | undefined;
  const lazyEngine = () => {
    // Prism is loaded only when a response was not prepared ahead: importing it costs seconds.
    engine ??= import('./prism-engine.js').then(({ createPrismEngine }) => createPrismEngine(document));
    return engine;
  };
  const preparedApi = await loadPreparedApi(preparedFile(distDirectory, name), specDigest);
  const context: Context = {
    profile,
    operations,
    document,
    engine: lazyEngine,
    runtime: createOperationRuntime(document, lazyEngine, preparedApi),
    sandbox: options.sandbox,
  };
  const limiter = options.limiter ?? createServerLimiter({ api: name });
  const sources: CredentialSources = {
    basic: createBasicGuard(options.credentials ?? demoCollectionCredentials),
    ...(options.authority ? { authority: options.authority } : {}),
  };
  if (profile.auth === 'bearer' && !options.authority) {
    throw new Error(`the ${name} mock needs an OAuth authority to check bearer tokens`);
  }

  const decide = async (
    request: IncomingMessage,
    url: URL,
  ): Promise<{ reply: Reply; limitHeaders: Record<string, string> }> => {
    const auth = authenticate(profile, request, sources);
    const mallId = auth.ok ? auth.principal.mallId : undefined;
    const limit = await limiter.take(
      profile.rateLimitKey === 'mall' && mallId ? mallId : clientAddress(request),
    );
    const limitHeaders = limit.headers;
    if (!limit.allowed) return { reply: errorReply(429, limit.body as ErrorEnvelope), limitHeaders };
    if (profile.servesOAuth && options.authority && isOAuthPath(url.pathname)) {
      // A QA request for a documented response (Prefer / __code) gets it from the spec; any other
      // OAuth request is answered by the mock authorization server itself.
      if (requestsDocumentedResponse(request, url)) {
        return { reply: await answerOperation(context, oauthCaller, request, url), limitHeaders };
      }
      const oauth = await handleOAuthRequest(options.authority, request, url, mallFromHost(request));
      if (oauth) return { reply: oauth, limitHeaders };
    }
    if (profile.httpsOnly && /^http$/i.test(String(request.headers['x-forwarded-proto'] ?? ''))) {
      return {
        reply: errorReply(403, errorEnvelope(403, 'Only HTTPS requests are accepted.')),
        limitHeaders,
      };
    }
    if (!auth.ok) return { reply: errorReply(401, errorEnvelope(401, auth.message)), limitHeaders };
    return { reply: await answerOperation(context, auth.principal, request, url), limitHeaders };
  };

  return {
    profile,
    operations,
    async handle(request, response) {
      const started = performance.now();
      let status = 500;
      try {
        const url = new URL(request.url ?? '/', 'http://mock.local');
        const { reply, limitHeaders } = await decide(request, url);
        status = reply.status;
        send(response, reply, limitHeaders);
      } catch (error) {
        status = 500;
        const kind = error instanceof Error ? error.name : 'Error';
        if (!response.headersSent)
          send(response, errorReply(500, errorEnvelope(500, `An internal error occurred (${kind}).`)), {});
        else response.destroy();
      } finally {
        options.log?.(
          `${profile.name} ${request.method ?? '-'} ${(request.url ?? '').split('?')[0]} ${status} ${(performance.now() - started).toFixed(1)}ms`,
        );
      }
    },
  };
}
