// The front layer of one mock API, composed in one visible place: rate limit → authentication →
// routing → scope → validation (Prism plus cross-parameter rules) → documented response. Each
// stage is a small function that either answers or passes on; every answer carries the API's
// rate-limit headers and every error the API's envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServerLimiter, type ServerLimiter } from '@mall-api/rate-limit';
import { type ApiName, type ApiProfile, apiProfiles } from './api-profiles.js';
import { authenticateBasic } from './basic-guard.js';
import { clientAddress } from './client-address.js';
import { crossParameterViolations } from './cross-parameter-rules.js';
import { type ClientCredential, demoCollectionCredentials } from './demo-credentials.js';
import { type ErrorEnvelope, errorEnvelope, invalidParameterEnvelope } from './error-envelope.js';
import { readPreference } from './preferences.js';
import { createPrismEngine, type PrismEngine } from './prism-engine.js';
import { findOperation, indexOperations, loadBundledSpec, type OperationEntry } from './spec-document.js';

/** Options for one mock API. */
export interface MockApiOptions {
  /** Basic credentials accepted (collection API). Defaults to the demo credentials. */
  credentials?: readonly ClientCredential[];
  /** Rate limiter; defaults to the API's own limit on an in-memory store. */
  limiter?: ServerLimiter;
  /** Called once per request with a log line that never contains credentials. */
  log?: (line: string) => void;
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
}

const errorReply = (
  status: number,
  envelope: ErrorEnvelope,
  headers: Record<string, string> = {},
): Reply => ({
  status,
  headers,
  body: envelope,
});

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

const unauthorizedMessages = {
  missing: 'Authentication is required: send Basic credentials (client ID and client secret).',
  malformed: 'The Authorization header is not valid Basic credentials.',
  invalid: 'The client ID or client secret is invalid.',
} as const;

async function decide(
  api: {
    profile: ApiProfile;
    operations: readonly OperationEntry[];
    engine: PrismEngine;
    credentials: readonly ClientCredential[];
  },
  request: IncomingMessage,
  url: URL,
): Promise<Reply> {
  const auth = authenticateBasic(request.headers.authorization, api.credentials);
  if (!auth.ok) return errorReply(401, errorEnvelope(401, unauthorizedMessages[auth.reason]));

  const method = request.method ?? 'GET';
  const operation = findOperation(api.operations, method, url.pathname);
  if (!operation) {
    return errorReply(
      404,
      errorEnvelope(404, `No API exists at ${method} ${url.pathname}. Check the endpoint URL.`),
    );
  }
  if (operation.requiredScope && !auth.scopes.includes(operation.requiredScope)) {
    const status = api.profile.missingScopeStatus;
    return errorReply(
      status,
      errorEnvelope(status, 'The client has no permission for this operation.', {
        required_scope: operation.requiredScope,
      }),
    );
  }

  const prefer = request.headers.prefer;
  const preference = readPreference(Array.isArray(prefer) ? prefer.join(', ') : prefer, url.searchParams);
  const query = queryRecord(url.searchParams);
  const result = await api.engine.handle(
    { method, path: url.pathname, query, headers: flattenHeaders(request) },
    preference,
  );
  if (result.kind === 'no-route') {
    return errorReply(
      404,
      errorEnvelope(404, `No API exists at ${method} ${url.pathname}. Check the endpoint URL.`),
    );
  }
  const crossViolations = crossParameterViolations(operation, query);
  const violations = result.kind === 'invalid' ? [...result.violations, ...crossViolations] : crossViolations;
  const askedForError = preference.code !== undefined && preference.code >= 400;
  if (violations.length > 0 && !askedForError) return errorReply(422, invalidParameterEnvelope(violations));
  if (result.kind === 'invalid') return errorReply(422, invalidParameterEnvelope(result.violations));
  return { status: result.status, headers: result.headers, body: result.body };
}

function send(response: ServerResponse, reply: Reply, limitHeaders: Record<string, string>): void {
  const payload = reply.body === undefined ? '' : JSON.stringify(reply.body);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers)) {
    if (!/^(content-type|content-length|x-ratelimit-|x-api-call-limit)/i.test(name)) headers[name] = value;
  }
  response.writeHead(reply.status, {
    ...headers,
    ...limitHeaders,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  });
  response.end(payload);
}

/** Builds the handler for one API from its bundled spec. */
export async function createMockApi(name: ApiName, options: MockApiOptions = {}): Promise<MockApi> {
  const profile = apiProfiles[name];
  const document = await loadBundledSpec(profile.specFile);
  const operations = indexOperations(document);
  const engine = await createPrismEngine(document);
  const limiter = options.limiter ?? createServerLimiter({ api: name });
  const credentials = options.credentials ?? demoCollectionCredentials;
  const api = { profile, operations, engine, credentials };

  return {
    profile,
    operations,
    async handle(request, response) {
      const started = performance.now();
      let status = 500;
      try {
        const url = new URL(request.url ?? '/', 'http://mock.local');
        const limit = await limiter.take(clientAddress(request));
        const reply: Reply = limit.allowed
          ? await decide(api, request, url)
          : errorReply(429, limit.body as ErrorEnvelope);
        status = reply.status;
        send(response, reply, limit.headers);
      } catch (error) {
        status = 500;
        const message = error instanceof Error ? error.name : 'Error';
        if (!response.headersSent) {
          send(response, errorReply(500, errorEnvelope(500, `An internal error occurred (${message}).`)), {});
        } else response.destroy();
      } finally {
        options.log?.(
          `${profile.name} ${request.method ?? '-'} ${(request.url ?? '').split('?')[0]} ${status} ${(performance.now() - started).toFixed(1)}ms`,
        );
      }
    },
  };
}
