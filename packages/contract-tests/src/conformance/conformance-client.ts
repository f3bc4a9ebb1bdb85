// How the conformance runner talks to the server under test: builds the URL of an operation from
// its parts (query lists serialized as each parameter's `style`/`explode` say), picks the
// credential a check asks for, spends one unit of the `--max-requests` budget per request, paces by
// the server's rate-limit headers and retries a 429 after its Retry-After. Waiting goes through a
// `Sleep`, so against our mock the runner can move the mall's clock instead of waiting (mock-clock.ts).

import type { Answer } from '@mall-api/mock-server/answer-checks';
import {
  type ApiName,
  type Json,
  mallParameterOf,
  type OperationEntry,
  parameterTexts,
} from '@mall-api/spec-model';
import { parseJson } from '../hooks/http-request.js';
import { createPacing, type Sleep } from '../hooks/pacing.js';
import type { RequestParts } from './request-cases.js';

/** The credentials of a run; all but `authorization` optional (their checks are skipped without them). */
export interface Credentials {
  /** The `Authorization` value granting every scope the API defines. */
  readonly authorization: string;
  /** One lacking the API's scopes (403/401 checks). */
  readonly forbidden?: string | undefined;
  /** The scopes `forbidden` does grant, when known (operations needing one of them skip its check). */
  readonly forbiddenScopes?: readonly string[] | undefined;
  /** A token of another mall (APIs with malls). */
  readonly otherMall?: string | undefined;
  /** An expired token. */
  readonly expired?: string | undefined;
  /**
   * The mall whose data `authorization` reads: a query parameter whose declared meaning is the mall
   * read (`x-query` role `mall`) is sent with it rather than with the spec's example mall.
   */
  readonly mallId?: string | undefined;
}

/** Which credential a request carries. */
export type CredentialKind = 'valid' | 'none' | 'wrong' | 'forbidden' | 'other-mall' | 'expired';

/** One request to send. */
export interface Outgoing {
  readonly operation: OperationEntry;
  readonly parts: RequestParts;
  readonly credential?: CredentialKind;
  readonly body?: Json;
  /** Sent as plain HTTP (the https-only check). */
  readonly plainHttp?: boolean;
  /** Answer a 429 as it is instead of waiting and retrying (the rate-limit checks). */
  readonly acceptLimit?: boolean;
}

/** Raised when the request budget is spent; the runner skips the remaining checks. */
export class BudgetSpent extends Error {
  constructor(readonly budget: number) {
    super(`the budget of ${budget} requests is spent`);
  }
}

/** Sends requests to one server. */
export interface ConformanceClient {
  send(request: Outgoing): Promise<Answer>;
  /** Requests sent so far. */
  readonly sent: number;
  /** Whether a credential of that kind is available. */
  has(kind: CredentialKind): boolean;
  /** The scopes the forbidden credential grants, when known. */
  readonly forbiddenScopes: readonly string[] | undefined;
  readonly sleep: Sleep;
}

/** Settings of {@link createConformanceClient}. */
export interface ClientSettings {
  readonly api: ApiName;
  readonly baseUrl: string;
  readonly credentials: Credentials;
  readonly maxRequests: number;
  readonly sleep: Sleep;
}

/** The query string of `parts.query`, serialized as the operation's parameters declare. */
export function queryString(operation: OperationEntry, query: Readonly<Record<string, Json>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const parameter = operation.parameters.find((p) => p.name === name && p.in === 'query');
    for (const text of parameterTexts(parameter ?? { name, in: 'query' }, value)) search.append(name, text);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** `query` with the parameter that names the mall read (if the operation has one and it is sent) set to `mallId`. */
export function withMall(
  operation: OperationEntry,
  query: Readonly<Record<string, Json>>,
  mallId: string | undefined,
): Readonly<Record<string, Json>> {
  if (mallId === undefined) return query;
  const mall = mallParameterOf(operation);
  return mall && mall in query ? { ...query, [mall]: mallId } : query;
}

/** The concrete path of `operation` with `path` filled in. */
export const concretePath = (operation: OperationEntry, path: Readonly<Record<string, Json>>) =>
  operation.pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(path[name])));

function wrong(authorization: string): string {
  const [scheme = 'Bearer', value = ''] = authorization.split(' ');
  if (scheme.toLowerCase() !== 'basic') return `${scheme} not-a-token-${value.length}`;
  const [id] = Buffer.from(value, 'base64').toString().split(':');
  return `Basic ${Buffer.from(`${id}:not-the-secret`).toString('base64')}`;
}

/** A client for one server. */
export function createConformanceClient(settings: ClientSettings): ConformanceClient {
  const { credentials } = settings;
  const pacing = createPacing(settings.api, settings.sleep);
  const authorizationOf: Record<CredentialKind, string | undefined> = {
    valid: credentials.authorization,
    none: undefined,
    wrong: wrong(credentials.authorization),
    forbidden: credentials.forbidden,
    'other-mall': credentials.otherMall,
    expired: credentials.expired,
  };
  let sent = 0;
  const once = async (request: Outgoing): Promise<Answer> => {
    if (sent >= settings.maxRequests) throw new BudgetSpent(settings.maxRequests);
    // The rate-limit checks spend the budget on purpose: they are not paced.
    if (!request.acceptLimit) await pacing.wait();
    sent++;
    const query = withMall(request.operation, request.parts.query, credentials.mallId);
    const url = `${settings.baseUrl}${concretePath(request.operation, request.parts.path)}${queryString(request.operation, query)}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [name, value] of Object.entries(request.parts.headers ?? {}))
      if (value !== null)
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : String(value);
    const authorization = authorizationOf[request.credential ?? 'valid'];
    if (authorization) headers.authorization = authorization;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let target = url;
    if (request.plainHttp) {
      if (url.startsWith('https:')) target = `http:${url.slice('https:'.length)}`;
      else headers['x-forwarded-proto'] = 'http';
    }
    const response = await fetch(target, {
      method: request.operation.method.toUpperCase(),
      headers,
      redirect: 'manual',
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    const text = await response.text();
    pacing.observe(response.status, response.headers);
    return { status: response.status, headers: response.headers, body: parseJson(text) };
  };
  return {
    get sent() {
      return sent;
    },
    sleep: settings.sleep,
    forbiddenScopes: credentials.forbiddenScopes,
    has: (kind) => kind === 'none' || authorizationOf[kind] !== undefined,
    async send(request) {
      let answer = await once(request);
      for (let retry = 0; retry < 3 && answer.status === 429 && !request.acceptLimit; retry++)
        answer = await once(request);
      return answer;
    },
  };
}
