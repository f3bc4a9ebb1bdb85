// Dredd hooks shared by every API, driven by the bundled spec rather than by hand-written cases:
// they set credentials, and for each documented status they make the request that provokes it
// (no credentials for 401, a token without the scope for 403, an unknown path for 404, a broken
// constraint for 422, an exhausted budget for 429). 5xx answers cannot be provoked on a real server: against our mock they are
// requested with `Prefer: code=…`; against any other server they are skipped, and say so.
// Dredd loads hook files with require(), hence CommonJS.
const hooks = require('hooks');
const { readFileSync } = require('node:fs');
const { request: httpRequest } = require('node:http');
const { request: httpsRequest } = require('node:https');
const { randomUUID } = require('node:crypto');

const settings = JSON.parse(process.env.CONTRACT_SETTINGS ?? '{}');
const spec = JSON.parse(readFileSync(settings.specFile, 'utf8'));
const runId = randomUUID().slice(0, 8);
let waitBeforeNextMs = 0;
let transactionCount = 0;
const nextAuthorization = () => settings.authorizations[transactionCount++ % settings.authorizations.length];

const resolve = (node) => {
  let current = node;
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((n, k) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return current;
};

const operationFor = (transaction) => {
  const method = transaction.request.method.toLowerCase();
  const pathItem = spec.paths[transaction.origin.resourceName];
  return resolve(pathItem?.[method]);
};

const parametersOf = (operation) => (operation.parameters ?? []).map(resolve);

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

/** Drops the first member of every mutually exclusive pair present, so the base request is valid. */
const dropExclusive = (operation, params) => {
  for (const [first, second] of operation['x-mutually-exclusive'] ?? []) {
    if (params.has(first) && params.has(second)) params.delete(first);
  }
};

/** Breaks one schema constraint: a missing required parameter, else a value over its maximum. */
const breakConstraint = (operation, params) => {
  const parameters = parametersOf(operation).filter((p) => p.in === 'query');
  const required = parameters.find((p) => p.required);
  if (required) {
    params.delete(required.name);
    return required.name;
  }
  const bounded = parameters.find((p) => typeof resolve(p.schema)?.maximum === 'number');
  if (bounded) {
    params.set(bounded.name, String(resolve(bounded.schema).maximum + 1));
    return bounded.name;
  }
  throw new Error(`no constraint to break for ${operation.operationId}`);
};

const send = (url, headers) =>
  new Promise((done, fail) => {
    const target = new URL(url);
    const call = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      { headers },
      (response) => {
        response.resume();
        response.on('end', () => done(response));
      },
    );
    call.on('error', fail);
    call.end();
  });

/** Spends the caller's budget until the server answers 429 (at most limit + 1 calls). */
const exhaustBudget = async (transaction) => {
  const url = `${settings.baseUrl}${transaction.request.uri}`;
  for (let i = 0; i < 500; i++) {
    const response = await send(url, transaction.request.headers);
    if (response.statusCode === 429) return;
  }
  throw new Error('the server never answered 429');
};

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
    if (status === 404) setUri(transaction, `${path}/__no_such_resource__`, params);
    else if (status === 422) {
      breakConstraint(operation, params);
      setUri(transaction, path, params);
    } else setUri(transaction, path, params);
    if (status === 429) {
      transaction.request.headers['X-Forwarded-For'] = `contract-${runId}-429-${operation.operationId}`;
      await exhaustBudget(transaction);
    }
    if (status >= 500 || (status >= 200 && status < 300 && status !== 200)) {
      if (settings.targetIsMock) transaction.request.headers.Prefer = `code=${status}`;
      else {
        transaction.skip = true;
        transaction.skipReason = `${status} cannot be provoked on a real server`;
      }
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

hooks.afterEach((transaction, done) => {
  const retryAfter = Number(transaction.real?.headers?.['retry-after']);
  if (
    transaction.real?.statusCode === 429 &&
    transaction.request.headers['X-Forwarded-For'] === `contract-${runId}`
  ) {
    waitBeforeNextMs = Number.isFinite(retryAfter) ? retryAfter * 1000 : 60_000;
  }
  done();
});
