// The contract hooks' logic, shared by every API and driven by the bundled spec: they set
// credentials, and for each documented status make the request that provokes it (no credentials
// for 401, a token without the scope for 403, an unknown path for 404, a broken constraint for
// 422, an exhausted budget for 429, once per run against a server other than our mock). Statuses
// a real server cannot be led to are asked of our mock with `Prefer: code=…` and skipped, saying
// so, elsewhere. Bodies are checked against the response's schema; against a sandbox a transaction
// first gets what it acts on (sandbox-fixtures.ts); against another server calls are paced by its
// rate-limit headers (pacing.ts). OAuth and broken constraints have modules of their own.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createSpecModel, isJsonObject, mallParameterOf, type OperationEntry } from '@mall-api/spec-model';
import { mockClockSleep } from '../conformance/mock-clock.js';
import type { ContractSettings } from '../settings.js';
import { breakConstraint, dropExclusive } from './broken-constraints.js';
import { type DreddTransaction, setUri, skip, splitUri } from './dredd-transaction.js';
import { flatHeaders, sendRequest } from './http-request.js';
import { isOAuthPath, prepareOAuth } from './oauth-transactions.js';
import { createPacing, type Pacing } from './pacing.js';
import { createResponseSchemas, type ResponseSchemas } from './response-schemas.js';
import { createSandboxFixtures, type SandboxFixtures } from './sandbox-fixtures.js';
import { type SpecOperations, specOperations } from './spec-operations.js';

/** What contract-hooks.cjs registers with Dredd. */
export interface TransactionHooks {
  beforeEach(transaction: DreddTransaction): Promise<void>;
  afterEach(transaction: DreddTransaction): void;
}

/** One run of the hooks: its settings, what it derived from the spec, and what it counts. */
interface HookRun {
  readonly settings: ContractSettings;
  readonly spec: SpecOperations;
  /** Marks this run's calls apart from another's (`X-Forwarded-For`, OAuth state). */
  readonly runId: string;
  /** The base URL's own path, kept in front of every URI. */
  readonly basePath: string;
  /** Against another server, paces calls by its rate-limit headers. */
  readonly pacing: Pacing | undefined;
  readonly fixtures: SandboxFixtures;
  readonly responseSchemas: ResponseSchemas;
  /** Transactions so far: each takes the next credential in turn. */
  transactionCount: number;
  /** Against another server, the operation whose 429 was provoked: once per run is enough. */
  rateLimitCheckedOn: string | undefined;
  /**
   * The credentials of the transaction the fixtures are made for: a sandbox keeps each mall's data
   * apart, so what a transaction acts on is made in its own mall.
   */
  fixtureAuthorization: string | undefined;
}

/** The next credential in turn, and the mall it reads when known. */
function nextCredential(run: HookRun) {
  const turn = run.transactionCount++;
  const { authorizations, mallIds = [] } = run.settings;
  return {
    authorization: authorizations[turn % authorizations.length] ?? '',
    mallId: mallIds[turn % Math.max(mallIds.length, 1)],
  };
}

/** Sends the parameter naming the mall read (if the operation has one in `params`) as `mallId`. */
function setMall(operation: OperationEntry, params: URLSearchParams, mallId: string | undefined) {
  const mall = mallParameterOf(operation);
  if (mallId !== undefined && mall && params.has(mall)) params.set(mall, mallId);
}

/** One call of the fixtures to the server under test, with credentials of its own; 2xx or throws. */
async function callApi(run: HookRun, method: string, path: string, body?: unknown): Promise<unknown> {
  await run.pacing?.wait();
  const response = await sendRequest(`${run.settings.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: run.fixtureAuthorization ?? nextCredential(run).authorization,
      'X-Forwarded-For': `contract-${run.runId}-fixture-${run.transactionCount}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  run.pacing?.observe(response.statusCode, new Headers(flatHeaders(response.headers)));
  if (response.statusCode >= 300)
    throw new Error(
      `fixture ${method} ${path} answered ${response.statusCode}: ${response.text.slice(0, 300)}`,
    );
  return response.text ? JSON.parse(response.text) : {};
}

/**
 * Where a 404 is asked for: against the sandbox, which knows its ids, the operation's path with an
 * id it never issued (when the path has an id); elsewhere, an unknown path.
 */
const notFoundPath = (run: HookRun, transaction: DreddTransaction, operation: OperationEntry, path: string) =>
  (run.settings.sandbox &&
    run.fixtures.unknownIdPath(transaction.origin.resourceName, path, operation.parameters)) ||
  `/__no_such_resource__${path}`;

/**
 * Against a sandbox, a transaction expecting success acts on resources made for it, and reads the
 * first page of a list (the examples' `offset` pages past the sandbox's rows, leaving nothing for
 * the schema check).
 */
async function useSandboxFixtures(
  run: HookRun,
  transaction: DreddTransaction,
  path: string,
  params: URLSearchParams,
) {
  run.fixtureAuthorization = transaction.request.headers.Authorization;
  const prepared = await run.fixtures.prepare({
    template: transaction.origin.resourceName,
    method: transaction.request.method,
    path,
    params,
    body: transaction.request.body,
  });
  params.delete('offset');
  setUri(transaction, run.basePath, prepared.path, params);
  if (prepared.body !== undefined) transaction.request.body = prepared.body;
}

/** Asks our mock for a documented status it cannot be led to by the request alone; elsewhere, skips. */
function requestOrSkip(run: HookRun, transaction: DreddTransaction, status: number, reason: string) {
  if (run.settings.targetIsMock) transaction.request.headers.Prefer = `code=${status}`;
  else skip(transaction, reason);
}

/** Spends the caller's budget until the server answers 429 (at most limit + 1 calls). */
async function exhaustBudget(run: HookRun, transaction: DreddTransaction) {
  const url = `${run.settings.baseUrl}${transaction.request.uri}`;
  for (let i = 0; i < 500; i++) {
    const response = await sendRequest(url, { headers: transaction.request.headers });
    if (response.statusCode === 429) return;
  }
  throw new Error('the server never answered 429');
}

/** Makes one transaction's request provoke the status it documents (or skips it, saying why). */
async function prepare(run: HookRun, transaction: DreddTransaction) {
  const { settings, basePath } = run;
  await run.pacing?.wait();
  const operation = run.spec.operationAt(transaction.origin.resourceName, transaction.request.method);
  if (!operation)
    throw new Error(`${transaction.request.method} ${transaction.origin.resourceName} is not in the spec`);
  const status = Number(transaction.expected.statusCode);
  const { path, params } = splitUri(transaction.request.uri);
  dropExclusive(operation, params);
  const headers = transaction.request.headers;
  const credential = nextCredential(run);
  headers.Authorization = credential.authorization;
  setMall(operation, params, credential.mallId);
  headers['X-Forwarded-For'] = `contract-${run.runId}-${run.transactionCount}`;
  if (status === 401) delete headers.Authorization;
  if (status === 403) {
    const forbidden = settings.forbiddenAuthorizations;
    const authorization = forbidden[run.transactionCount % Math.max(forbidden.length, 1)];
    if (authorization) headers.Authorization = authorization;
    else skip(transaction, '403 needs a token lacking the scopes (--forbidden-access-token, or --client-id)');
  }
  if (isOAuthPath(path) && (status < 404 || status === 200)) {
    await prepareOAuth(run, transaction, status, path, params);
    return;
  }
  if (isOAuthPath(path)) delete headers.Authorization;
  if (status === 404) setUri(transaction, basePath, notFoundPath(run, transaction, operation, path), params);
  else if (status === 422) {
    const broken = breakConstraint(transaction, operation, path, params);
    if (broken) setUri(transaction, basePath, broken.path, params);
    else requestOrSkip(run, transaction, 422, 'no constraint to break');
  } else setUri(transaction, basePath, path, params);
  const bodySchema = run.responseSchemas.bodySchema(operation, status);
  if (bodySchema) transaction.expected.bodySchema = bodySchema;
  if (settings.sandbox && status >= 200 && status < 300 && status !== 207)
    await useSandboxFixtures(run, transaction, path, params);
  if (status === 400) {
    if (transaction.request.body) headers['Content-Type'] = 'text/plain';
    else requestOrSkip(run, transaction, 400, 'a 400 on a request without a body cannot be provoked');
  }
  if (status === 429 && !settings.targetIsMock && run.rateLimitCheckedOn) {
    skip(
      transaction,
      `the rate limit was provoked once (${run.rateLimitCheckedOn}); each time spends the whole budget`,
    );
    return;
  }
  if (status === 429) {
    run.rateLimitCheckedOn = operation.operationId;
    headers['X-Forwarded-For'] = `contract-${run.runId}-429-${operation.operationId}`;
    await exhaustBudget(run, transaction);
  }
  if (status >= 500 || status === 207 || (status === 201 && !transaction.request.body)) {
    requestOrSkip(run, transaction, status, `${status} cannot be provoked on a real server`);
  }
}

/** Builds the hooks of one run from its settings. */
export async function createTransactionHooks(settings: ContractSettings): Promise<TransactionHooks> {
  const parsed: unknown = JSON.parse(await readFile(settings.specFile, 'utf8'));
  if (!isJsonObject(parsed)) throw new Error(`${settings.specFile} is not an OpenAPI document`);
  const spec = specOperations(createSpecModel(parsed));
  const run: HookRun = {
    settings,
    spec,
    runId: randomUUID().slice(0, 8),
    basePath: new URL(settings.baseUrl).pathname,
    pacing: settings.targetIsMock
      ? undefined
      : createPacing(settings.api, settings.mockClock ? mockClockSleep(settings.baseUrl) : undefined),
    fixtures: createSandboxFixtures(spec, (method, path, body) => callApi(run, method, path, body)),
    responseSchemas: createResponseSchemas(spec.model),
    transactionCount: 0,
    rateLimitCheckedOn: undefined,
    fixtureAuthorization: undefined,
  };
  return {
    async beforeEach(transaction) {
      try {
        await prepare(run, transaction);
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
        run.pacing?.observe(transaction.real.statusCode, new Headers(transaction.real.headers));
    },
  };
}
