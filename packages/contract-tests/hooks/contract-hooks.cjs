// Dredd hooks shared by every API, driven by the bundled spec rather than by hand-written cases:
// they set credentials, and for each documented status they make the request that provokes it
// (no credentials for 401, a token without the scope for 403, an unknown path for 404, a broken
// constraint for 422, an exhausted budget for 429). 5xx answers cannot be provoked on a real
// server: against our mock they are requested with `Prefer: code=…`; against any other server they
// are skipped, and say so. Every JSON body is checked against the response's schema from the spec
// (response-schema.cjs). Against a sandbox (settings.sandbox) the example ids name nothing, so a
// transaction expecting success first gets, through the API, what it acts on (sandbox-fixtures.cjs),
// and a 404 names an id the sandbox never issued. Dredd loads hook files with require(), hence
// CommonJS; the modules beside this one are plain CommonJS too.
const hooks = require('hooks');
const { readFileSync } = require('node:fs');
const { randomUUID } = require('node:crypto');
const { sendRequest } = require('./http-request.cjs');
const { createResponseSchemas } = require('./response-schema.cjs');
const { createSandboxFixtures } = require('./sandbox-fixtures.cjs');
const { createSpecModel } = require('./spec-model.cjs');

const settings = JSON.parse(process.env.CONTRACT_SETTINGS ?? '{}');
const model = createSpecModel(JSON.parse(readFileSync(settings.specFile, 'utf8')));
const { resolve, parametersOf } = model;
const runId = randomUUID().slice(0, 8);
let waitBeforeNextMs = 0;
let transactionCount = 0;
const nextAuthorization = () => settings.authorizations[transactionCount++ % settings.authorizations.length];

const operationFor = (transaction) =>
  model.operation(transaction.origin.resourceName, transaction.request.method);

const splitUri = (uri) => {
  const [path, query = ''] = uri.split('?');
  return { path, params: new URLSearchParams(query) };
};

const setUri = (transaction, path, params) => {
  const query = params.toString().replace(/%2C/g, ',');
  const uri = query ? `${path}?${query}` : path;
  transaction.request.uri = uri;
  transaction.fullPath = uri;
};

/**
 * The credentials of the transaction the fixtures are made for: a sandbox keeps each mall's data
 * apart, so what a transaction acts on is made in its own mall.
 * @type {string | undefined}
 */
let fixtureAuthorization;

/** One call of the fixtures to the server under test, with the transaction's credentials; 2xx or throws. */
const callApi = async (method, path, body) => {
  const response = await sendRequest(`${settings.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: fixtureAuthorization ?? nextAuthorization(),
      'X-Forwarded-For': `contract-${runId}-fixture-${transactionCount}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.statusCode >= 300)
    throw new Error(
      `fixture ${method} ${path} answered ${response.statusCode}: ${response.text.slice(0, 300)}`,
    );
  return response.text ? JSON.parse(response.text) : {};
};

const fixtures = createSandboxFixtures({ model, call: callApi });
const responseSchemas = createResponseSchemas(model);

/** Drops the first member of every mutually exclusive pair present, so the base request is valid. */
const dropExclusive = (operation, params) => {
  for (const [first, second] of operation['x-mutually-exclusive'] ?? []) {
    if (params.has(first) && params.has(second)) params.delete(first);
  }
};

/**
 * Breaks one schema constraint: for a JSON body, `request` sent as an array (one object per call
 * is the rule); else a missing required query parameter, a query value over its maximum, or a
 * non-numeric path id. Returns false when the operation has nothing to break.
 */
const breakConstraint = (transaction, operation, path, params) => {
  if (transaction.request.body) {
    const body = JSON.parse(transaction.request.body);
    body.request = [body.request];
    transaction.request.body = JSON.stringify(body);
    return { path };
  }
  const parameters = parametersOf(operation);
  const required = parameters.find((p) => p.in === 'query' && p.required);
  if (required) {
    params.delete(required.name);
    return { path };
  }
  const bounded = parameters.find((p) => p.in === 'query' && typeof resolve(p.schema)?.maximum === 'number');
  if (bounded) {
    params.set(bounded.name, String(resolve(bounded.schema).maximum + 1));
    return { path };
  }
  const idParameter = parameters.find((p) => p.in === 'path' && resolve(p.schema)?.type === 'integer');
  if (idParameter) {
    const template = transaction.origin.resourceName.split('/');
    const segments = path.split('/');
    const index = template.indexOf(`{${idParameter.name}}`);
    segments[index] = 'not-a-number';
    return { path: segments.join('/') };
  }
  return undefined;
};

/**
 * Where a 404 is asked for: against the sandbox, which knows its ids, the operation's path with an
 * id it never issued (when the path has an id); elsewhere, an unknown path.
 */
const notFoundPath = (transaction, operation, path) =>
  (settings.sandbox &&
    fixtures.unknownIdPath(transaction.origin.resourceName, path, parametersOf(operation))) ||
  `/__no_such_resource__${path}`;

/**
 * Against a sandbox, a transaction expecting success acts on resources made for it, and reads the
 * first page of a list (the examples' `offset` pages past the sandbox's rows, leaving nothing for
 * the schema check).
 */
const useSandboxFixtures = async (transaction, path, params) => {
  fixtureAuthorization = transaction.request.headers.Authorization;
  const prepared = await fixtures.prepare({
    template: transaction.origin.resourceName,
    method: transaction.request.method,
    path,
    params,
    body: transaction.request.body,
  });
  params.delete('offset');
  setUri(transaction, prepared.path, params);
  if (prepared.body !== undefined) transaction.request.body = prepared.body;
};

/** Asks our mock for a documented status it cannot be led to by the request alone; elsewhere, skips. */
const requestOrSkip = (transaction, status, reason) => {
  if (settings.targetIsMock) transaction.request.headers.Prefer = `code=${status}`;
  else {
    transaction.skip = true;
    transaction.skipReason = reason;
  }
};

/** Spends the caller's budget until the server answers 429 (at most limit + 1 calls). */
const exhaustBudget = async (transaction) => {
  const url = `${settings.baseUrl}${transaction.request.uri}`;
  for (let i = 0; i < 500; i++) {
    const response = await sendRequest(url, { headers: transaction.request.headers });
    if (response.statusCode === 429) return;
  }
  throw new Error('the server never answered 429');
};

/** Gets a fresh authorization code from the authorize endpoint, as a browser would after consent. */
const obtainCode = async () => {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: settings.oauth.clientId,
    redirect_uri: settings.oauth.redirectUri,
    scope: 'mall.read_category',
    state: runId,
  });
  const response = await sendRequest(`${settings.baseUrl}/api/v2/oauth/authorize?${query}`, {
    headers: { 'X-Forwarded-For': `contract-${runId}-code` },
  });
  const code = new URL(response.headers.location ?? 'http://invalid/').searchParams.get('code');
  if (!code) throw new Error(`authorize answered ${response.statusCode} without a code`);
  return code;
};

/**
 * The OAuth endpoints take no access token but a registered app: on our mock, the demo app
 * (settings.oauth); elsewhere they would need a real app and a user's consent, so they are skipped.
 */
const prepareOAuth = async (transaction, status, path, params) => {
  delete transaction.request.headers.Authorization;
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
    setUri(transaction, path, params);
    if (status === 200) transaction.request.headers.Prefer = 'code=200';
    return;
  }
  const secret = status === 401 ? 'not-the-secret' : clientSecret;
  transaction.request.headers.Authorization = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
  transaction.request.headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const code = status === 200 ? await obtainCode() : 'no-such-code';
  transaction.request.body = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
  }).toString();
};

const isOAuthPath = (path) => path === '/api/v2/oauth/authorize' || path === '/api/v2/oauth/token';

hooks.beforeEach((transaction, done) => {
  const run = async () => {
    if (waitBeforeNextMs > 0) {
      await new Promise((r) => setTimeout(r, waitBeforeNextMs));
      waitBeforeNextMs = 0;
    }
    const operation = operationFor(transaction);
    const status = Number(transaction.expected.statusCode);
    const { path, params } = splitUri(transaction.request.uri);
    dropExclusive(operation, params);
    transaction.request.headers.Authorization = nextAuthorization();
    transaction.request.headers['X-Forwarded-For'] = `contract-${runId}-${transactionCount}`;
    if (status === 401) delete transaction.request.headers.Authorization;
    if (status === 403) {
      const forbidden = settings.forbiddenAuthorizations ?? [];
      if (forbidden.length > 0)
        transaction.request.headers.Authorization = forbidden[transactionCount % forbidden.length];
      else {
        transaction.skip = true;
        transaction.skipReason = '403 needs CONTRACT_FORBIDDEN_ACCESS_TOKEN';
      }
    }
    if (isOAuthPath(path) && (status < 404 || status === 200)) {
      await prepareOAuth(transaction, status, path, params);
      return;
    }
    if (isOAuthPath(path)) delete transaction.request.headers.Authorization;
    if (status === 404) setUri(transaction, notFoundPath(transaction, operation, path), params);
    else if (status === 422) {
      const broken = breakConstraint(transaction, operation, path, params);
      if (broken) setUri(transaction, broken.path, params);
      else requestOrSkip(transaction, 422, 'no constraint to break');
    } else setUri(transaction, path, params);
    const bodySchema = responseSchemas.bodySchema(operation, status);
    if (bodySchema) transaction.expected.bodySchema = bodySchema;
    if (settings.sandbox && status >= 200 && status < 300 && status !== 207)
      await useSandboxFixtures(transaction, path, params);
    if (status === 400) {
      if (transaction.request.body) transaction.request.headers['Content-Type'] = 'text/plain';
      else requestOrSkip(transaction, 400, 'a 400 on a request without a body cannot be provoked');
    }
    if (status === 429) {
      transaction.request.headers['X-Forwarded-For'] = `contract-${runId}-429-${operation.operationId}`;
      await exhaustBudget(transaction);
    }
    if (status >= 500 || status === 207 || (status === 201 && !transaction.request.body)) {
      requestOrSkip(transaction, status, `${status} cannot be provoked on a real server`);
    }
  };
  run().then(
    () => done(),
    (error) => {
      transaction.fail = String(error);
      done();
    },
  );
});

/**
 * After a 429 from a server other than our mock (where every transaction has a mall, so a budget
 * of its own), the next transaction waits out Retry-After: it shares the spent budget.
 */
hooks.afterEach((transaction, done) => {
  const retryAfter = Number(transaction.real?.headers?.['retry-after']);
  if (transaction.real?.statusCode === 429 && !settings.targetIsMock) {
    waitBeforeNextMs = Number.isFinite(retryAfter) ? retryAfter * 1000 : 60_000;
  }
  done();
});
