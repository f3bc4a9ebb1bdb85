// The contract hooks' logic, shared by every API and driven by the bundled spec (read through
// @mall-api/spec-model) rather than by hand-written cases: they set credentials, and for each
// documented status they make the request that provokes it (no credentials for 401, a token
// without the scope for 403, an unknown path for 404, a broken constraint for 422, an exhausted
// budget for 429, once per run against a server other than our mock). 5xx answers cannot be
// provoked on a real server: against our mock they are requested with `Prefer: code=…`; against
// any other server they are skipped, and say so. Every JSON body is checked against the
// response's schema from the spec (response-schemas.ts). Against a sandbox the example ids name
// nothing, so a transaction expecting success first gets, through the API, what it acts on
// (sandbox-fixtures.ts), and a 404 names an id the sandbox never issued. Against another server,
// calls are paced by its rate-limit headers (pacing.ts).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  createSpecModel,
  isJsonObject,
  mallParameterOf,
  type OperationEntry,
  parameterRulesOf,
} from '@mall-api/spec-model';
import type { ContractSettings } from '../settings.js';
import { sendRequest } from './http-request.js';
import { createPacing } from './pacing.js';
import { createResponseSchemas } from './response-schemas.js';
import { createSandboxFixtures } from './sandbox-fixtures.js';
import { specOperations } from './spec-operations.js';

/** The parts of a Dredd transaction the hooks read and change. */
export interface DreddTransaction {
  origin: { resourceName: string };
  request: { method: string; uri: string; headers: Record<string, string>; body?: string };
  expected: { statusCode: string; bodySchema?: string };
  real?: { statusCode: number; headers?: Record<string, string> };
  fullPath?: string;
  skip?: boolean;
  skipReason?: string;
  fail?: string;
}

/** What contract-hooks.cjs registers with Dredd. */
export interface TransactionHooks {
  beforeEach(transaction: DreddTransaction): Promise<void>;
  afterEach(transaction: DreddTransaction): void;
}

const splitUri = (uri: string) => {
  const [path = '', query = ''] = uri.split('?');
  return { path, params: new URLSearchParams(query) };
};

/**
 * Sets the request's URI, and the full path Dredd requests: the URI under the base URL's own path
 * (a per-mall base URL, `…/__mall/<id>`, keeps its mall), as Dredd builds it for the URIs it made.
 */
export const setUri = (
  transaction: DreddTransaction,
  basePath: string,
  path: string,
  params: URLSearchParams,
) => {
  const query = params.toString().replace(/%2C/g, ',');
  const uri = query ? `${path}?${query}` : path;
  transaction.request.uri = uri;
  transaction.fullPath = `${basePath.replace(/\/$/, '')}${uri}`;
};

/** Response headers as a `Headers` (what @mall-api/rate-limit reads). */
const headersOf = (headers: Record<string, string | string[] | undefined>) =>
  new Headers(
    Object.entries(headers).flatMap(([name, value]): [string, string][] =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ),
  );

const isOAuthPath = (path: string) => path === '/api/v2/oauth/authorize' || path === '/api/v2/oauth/token';

/** Builds the hooks of one run from its settings. */
export async function createTransactionHooks(settings: ContractSettings): Promise<TransactionHooks> {
  const parsed: unknown = JSON.parse(await readFile(settings.specFile, 'utf8'));
  if (!isJsonObject(parsed)) throw new Error(`${settings.specFile} is not an OpenAPI document`);
  const spec = specOperations(createSpecModel(parsed));
  const runId = randomUUID().slice(0, 8);
  const basePath = new URL(settings.baseUrl).pathname;
  const pacing = settings.targetIsMock ? undefined : createPacing(settings.api);
  let transactionCount = 0;
  /** Against another server, the operation whose 429 was provoked: once per run is enough. */
  let rateLimitCheckedOn: string | undefined;
  /** The next credential in turn, and the mall it reads when known. */
  const nextCredential = () => {
    const turn = transactionCount++;
    const mallIds = settings.mallIds ?? [];
    return {
      authorization: settings.authorizations[turn % settings.authorizations.length] ?? '',
      mallId: mallIds[turn % Math.max(mallIds.length, 1)],
    };
  };
  const nextAuthorization = () => nextCredential().authorization;

  /** Sends the parameter naming the mall read (if the operation has one in `params`) as `mallId`. */
  const setMall = (operation: OperationEntry, params: URLSearchParams, mallId: string | undefined) => {
    const mall = mallParameterOf(operation);
    if (mallId !== undefined && mall && params.has(mall)) params.set(mall, mallId);
  };

  /** One call of the fixtures to the server under test, with credentials of its own; 2xx or throws. */
  /**
   * The credentials of the transaction the fixtures are made for: a sandbox keeps each mall's data
   * apart, so what a transaction acts on is made in its own mall.
   */
  let fixtureAuthorization: string | undefined;

  const callApi = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    await pacing?.wait();
    const response = await sendRequest(`${settings.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: fixtureAuthorization ?? nextAuthorization(),
        'X-Forwarded-For': `contract-${runId}-fixture-${transactionCount}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    pacing?.observe(response.statusCode, headersOf(response.headers));
    if (response.statusCode >= 300)
      throw new Error(
        `fixture ${method} ${path} answered ${response.statusCode}: ${response.text.slice(0, 300)}`,
      );
    return response.text ? JSON.parse(response.text) : {};
  };

  const fixtures = createSandboxFixtures({ spec, call: callApi });
  const responseSchemas = createResponseSchemas(spec.model);

  /** Drops the first member of every mutually exclusive pair present, so the base request is valid. */
  const dropExclusive = (operation: OperationEntry, params: URLSearchParams) => {
    for (const [first, second] of parameterRulesOf(operation).mutuallyExclusive)
      if (params.has(first) && params.has(second)) params.delete(first);
  };

  /**
   * Breaks one schema constraint: for a JSON body, `request` sent as an array (one object per call
   * is the rule); else a missing required query parameter, a query value over its maximum, or a
   * non-numeric path id. Returns undefined when the operation has nothing to break.
   */
  const breakConstraint = (
    transaction: DreddTransaction,
    operation: OperationEntry,
    path: string,
    params: URLSearchParams,
  ) => {
    if (transaction.request.body) {
      const body = JSON.parse(transaction.request.body) as Record<string, unknown>;
      body.request = [body.request];
      transaction.request.body = JSON.stringify(body);
      return { path };
    }
    const query = operation.parameters.filter((p) => p.in === 'query');
    const required = query.find((p) => p.required);
    if (required) {
      params.delete(required.name);
      return { path };
    }
    const bounded = query.find((p) => typeof p.schema.maximum === 'number');
    if (bounded) {
      params.set(bounded.name, String(Number(bounded.schema.maximum) + 1));
      return { path };
    }
    const idParameter = operation.parameters.find((p) => p.in === 'path' && p.schema.type === 'integer');
    if (idParameter) {
      const template = transaction.origin.resourceName.split('/');
      const segments = path.split('/');
      segments[template.indexOf(`{${idParameter.name}}`)] = 'not-a-number';
      return { path: segments.join('/') };
    }
    return undefined;
  };

  /**
   * Where a 404 is asked for: against the sandbox, which knows its ids, the operation's path with an
   * id it never issued (when the path has an id); elsewhere, an unknown path.
   */
  const notFoundPath = (transaction: DreddTransaction, operation: OperationEntry, path: string) =>
    (settings.sandbox &&
      fixtures.unknownIdPath(transaction.origin.resourceName, path, operation.parameters)) ||
    `/__no_such_resource__${path}`;

  /**
   * Against a sandbox, a transaction expecting success acts on resources made for it, and reads the
   * first page of a list (the examples' `offset` pages past the sandbox's rows, leaving nothing for
   * the schema check).
   */
  const useSandboxFixtures = async (transaction: DreddTransaction, path: string, params: URLSearchParams) => {
    fixtureAuthorization = transaction.request.headers.Authorization;
    const prepared = await fixtures.prepare({
      template: transaction.origin.resourceName,
      method: transaction.request.method,
      path,
      params,
      body: transaction.request.body,
    });
    params.delete('offset');
    setUri(transaction, basePath, prepared.path, params);
    if (prepared.body !== undefined) transaction.request.body = prepared.body;
  };

  /** Asks our mock for a documented status it cannot be led to by the request alone; elsewhere, skips. */
  const requestOrSkip = (transaction: DreddTransaction, status: number, reason: string) => {
    if (settings.targetIsMock) transaction.request.headers.Prefer = `code=${status}`;
    else {
      transaction.skip = true;
      transaction.skipReason = reason;
    }
  };

  /** Spends the caller's budget until the server answers 429 (at most limit + 1 calls). */
  const exhaustBudget = async (transaction: DreddTransaction) => {
    const url = `${settings.baseUrl}${transaction.request.uri}`;
    for (let i = 0; i < 500; i++) {
      const response = await sendRequest(url, { headers: transaction.request.headers });
      if (response.statusCode === 429) return;
    }
    throw new Error('the server never answered 429');
  };

  /** Gets a fresh authorization code from the authorize endpoint, as a browser would after consent. */
  const obtainCode = async (clientId: string, redirectUri: string) => {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'mall.read_category',
      state: runId,
    });
    const response = await sendRequest(`${settings.baseUrl}/api/v2/oauth/authorize?${query}`, {
      headers: { 'X-Forwarded-For': `contract-${runId}-code` },
    });
    const location = response.headers.location ?? 'http://invalid/';
    const code = new URL(location).searchParams.get('code');
    if (!code) throw new Error(`authorize answered ${response.statusCode} without a code`);
    return code;
  };

  /**
   * The OAuth endpoints take no access token but a registered app (settings.oauth); without one
   * they would need a real app and a user's consent, so they are skipped.
   */
  const prepareOAuth = async (
    transaction: DreddTransaction,
    status: number,
    path: string,
    params: URLSearchParams,
  ) => {
    delete transaction.request.headers.Authorization;
    if (status === 403) {
      // The OAuth endpoints refuse plain HTTP with 403 like every other path (x-https-only). Our
      // mock reads the protocol from X-Forwarded-Proto; a real server is reached over HTTPS only.
      if (settings.targetIsMock) transaction.request.headers['X-Forwarded-Proto'] = 'http';
      else {
        transaction.skip = true;
        transaction.skipReason = 'a plain-HTTP request cannot be sent to a server reached over HTTPS';
      }
      return;
    }
    if (!settings.oauth) {
      transaction.skip = true;
      transaction.skipReason = 'OAuth transactions need a registered app and a user consenting';
      return;
    }
    const { clientId, clientSecret, redirectUri } = settings.oauth;
    if (path.endsWith('/authorize')) {
      params.set('response_type', 'code');
      params.set('client_id', status === 401 ? 'unregistered-app' : clientId);
      params.set('redirect_uri', status === 400 ? 'https://unregistered.example/callback' : redirectUri);
      params.set('scope', 'mall.read_category');
      setUri(transaction, basePath, path, params);
      if (status === 200) transaction.request.headers.Prefer = 'code=200';
      return;
    }
    const secret = status === 401 ? 'not-the-secret' : clientSecret;
    transaction.request.headers.Authorization = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
    transaction.request.headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const code = status === 200 ? await obtainCode(clientId, redirectUri) : 'no-such-code';
    transaction.request.body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    }).toString();
  };

  const prepare = async (transaction: DreddTransaction) => {
    await pacing?.wait();
    const operation = spec.operationAt(transaction.origin.resourceName, transaction.request.method);
    if (!operation)
      throw new Error(`${transaction.request.method} ${transaction.origin.resourceName} is not in the spec`);
    const status = Number(transaction.expected.statusCode);
    const { path, params } = splitUri(transaction.request.uri);
    dropExclusive(operation, params);
    const headers = transaction.request.headers;
    const credential = nextCredential();
    headers.Authorization = credential.authorization;
    setMall(operation, params, credential.mallId);
    headers['X-Forwarded-For'] = `contract-${runId}-${transactionCount}`;
    if (status === 401) delete headers.Authorization;
    if (status === 403) {
      const forbidden = settings.forbiddenAuthorizations;
      const authorization = forbidden[transactionCount % Math.max(forbidden.length, 1)];
      if (authorization) headers.Authorization = authorization;
      else {
        transaction.skip = true;
        transaction.skipReason =
          '403 needs a token lacking the scopes (--forbidden-access-token, or --client-id)';
      }
    }
    if (isOAuthPath(path) && (status < 404 || status === 200)) {
      await prepareOAuth(transaction, status, path, params);
      return;
    }
    if (isOAuthPath(path)) delete headers.Authorization;
    if (status === 404) setUri(transaction, basePath, notFoundPath(transaction, operation, path), params);
    else if (status === 422) {
      const broken = breakConstraint(transaction, operation, path, params);
      if (broken) setUri(transaction, basePath, broken.path, params);
      else requestOrSkip(transaction, 422, 'no constraint to break');
    } else setUri(transaction, basePath, path, params);
    const bodySchema = responseSchemas.bodySchema(operation, status);
    if (bodySchema) transaction.expected.bodySchema = bodySchema;
    if (settings.sandbox && status >= 200 && status < 300 && status !== 207)
      await useSandboxFixtures(transaction, path, params);
    if (status === 400) {
      if (transaction.request.body) headers['Content-Type'] = 'text/plain';
      else requestOrSkip(transaction, 400, 'a 400 on a request without a body cannot be provoked');
    }
    if (status === 429 && !settings.targetIsMock && rateLimitCheckedOn) {
      transaction.skip = true;
      transaction.skipReason = `the rate limit was provoked once (${rateLimitCheckedOn}); each time spends the whole budget`;
      return;
    }
    if (status === 429) {
      rateLimitCheckedOn = operation.operationId;
      headers['X-Forwarded-For'] = `contract-${runId}-429-${operation.operationId}`;
      await exhaustBudget(transaction);
    }
    if (status >= 500 || status === 207 || (status === 201 && !transaction.request.body)) {
      requestOrSkip(transaction, status, `${status} cannot be provoked on a real server`);
    }
  };

  return {
    async beforeEach(transaction) {
      try {
        await prepare(transaction);
      } catch (error) {
        transaction.fail = String(error);
      }
    },
    /**
     * Against a server other than our mock (where every transaction has a mall, so a budget of its
     * own), the answer tells how long the next transaction waits: they share one budget.
     */
    afterEach(transaction) {
      if (transaction.real)
        pacing?.observe(transaction.real.statusCode, headersOf(transaction.real.headers ?? {}));
    },
  };
}
