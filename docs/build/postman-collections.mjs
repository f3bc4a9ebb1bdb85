// @ts-check
// A Postman collection per API and an environment per target (the local sandbox with the demo
// credentials; "your mall" with empty secrets), converted from the spec by Postman's own converter
// (openapi-to-postmanv2, folders by tag) and then aligned with the spec model: optional parameters
// off, required ones and request bodies filled from the spec's examples (the values the code
// samples use, which exist in the default sandbox), one set of variables (`baseUrl`, the client's
// credentials, the OAuth URLs and a loopback `redirectUri`) that every request and the collection's
// auth read. The OAuth APIs carry a collection-level pre-request script that, where the
// environment says the OAuth server consents at once (`sandboxConsent`, the local mocks), fetches
// an access token by the authorization-code flow before the first request. Every request carries
// tests: its answer is one of the operation's documented successes and its JSON body matches the
// documented schema, so a run with a wrong secret fails.
import { mallParameterOf } from '@mall-api/spec-model';
import Converter from 'openapi-to-postmanv2';
import { productionUrlOf } from './code-samples.mjs';
import { parameterExample, requestBodyExample } from './spec-examples.mjs';

/** @typedef {import('@mall-api/spec-model').SpecModel} SpecModel */
/** @typedef {import('@mall-api/spec-model').OperationEntry} OperationEntry */
/** @typedef {{ key: string, value: string, type?: string, disabled?: boolean }} Variable */

/** Where the demo app's authorization code lands: a loopback callback the mocks accept on any port. */
export const postmanRedirectUri = 'http://127.0.0.1:8900/callback';

/**
 * The collection-level script of the OAuth APIs: with `sandboxConsent` set and no `accessToken`
 * yet, runs authorize (the mock answers 302 with the code at once; run newman with redirects off)
 * and exchanges the code at the token URL. Elsewhere, Postman's "Get New Access Token" does this.
 */
const tokenScript = `// Fetches a token from a mock OAuth server that consents at once (see sandboxConsent).
const store = pm.environment.has('accessToken') ? pm.environment : pm.collectionVariables;
if (pm.variables.get('sandboxConsent') === 'true' && !pm.variables.get('accessToken')) {
  const state = String(Math.random()).slice(2);
  const authorize = pm.variables.replaceIn('{{authUrl}}') +
    '?response_type=code&client_id=' + encodeURIComponent(pm.variables.get('clientId')) +
    '&state=' + state + '&redirect_uri=' + encodeURIComponent(pm.variables.get('redirectUri')) +
    '&scope=' + encodeURIComponent(pm.variables.get('scopes'));
  pm.sendRequest(authorize, (error, answer) => {
    const location = answer && answer.headers.get('Location');
    if (error || !location) return console.error('authorize did not redirect', error || answer.code);
    const code = decodeURIComponent((/[?&]code=([^&]+)/.exec(location) || [])[1] || '');
    pm.sendRequest({
      url: pm.variables.replaceIn('{{accessTokenUrl}}'),
      method: 'POST',
      header: { Authorization: 'Basic ' + btoa(pm.variables.get('clientId') + ':' + pm.variables.get('clientSecret')) },
      body: { mode: 'urlencoded', urlencoded: [
        { key: 'grant_type', value: 'authorization_code' },
        { key: 'code', value: code },
        { key: 'redirect_uri', value: pm.variables.get('redirectUri') },
      ] },
    }, (failure, tokens) => {
      if (failure || tokens.code !== 200) return console.error('token exchange failed', failure || tokens.code);
      store.set('accessToken', tokens.json().access_token);
      store.set('refreshToken', tokens.json().refresh_token);
    });
  });
}`;

/**
 * The collection-level test script: a 429 is retried after the Retry-After the API sends, as the
 * rate-limit guide says a client should.
 */
const retryScript = `// On 429, wait for Retry-After and send the request again.
if (pm.response.code === 429) {
  const seconds = Number(pm.response.headers.get('Retry-After')) || 1;
  setTimeout(() => {}, seconds * 1000);
  pm.execution.setNextRequest(pm.info.requestId);
}`;

/**
 * The pre-request script of the token endpoint's own request: a fresh single-use code first.
 */
const codeScript = `// A fresh authorization code for this request (the mock consents at once).
pm.sendRequest(pm.variables.replaceIn('{{authUrl}}') + '?response_type=code&client_id=' +
  encodeURIComponent(pm.variables.get('clientId')) + '&state=code&redirect_uri=' +
  encodeURIComponent(pm.variables.get('redirectUri')) + '&scope=' + encodeURIComponent(pm.variables.get('scopes')),
  (error, answer) => {
    const location = answer && answer.headers.get('Location');
    const code = location && /[?&]code=([^&]+)/.exec(location);
    if (code) pm.variables.set('authorizationCode', decodeURIComponent(code[1]));
  });`;

/** Keywords a response check keeps: what a JSON Schema validator (Postman's Ajv) asserts on. */
const checkedKeywords = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'items',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
  'if',
  'then',
  'else',
  'patternProperties',
  'propertyNames',
  'contains',
]);

/**
 * A dereferenced schema cut to the keywords a validator asserts (no formats, examples or
 * extensions: Postman's Ajv knows neither OpenAPI 3.1's annotations nor our formats).
 * @param {any} schema
 * @returns {any}
 */
function checkedSchema(schema) {
  if (Array.isArray(schema)) return schema.map(checkedSchema);
  if (!schema || typeof schema !== 'object') return schema;
  /** @type {Record<string, any>} */
  const kept = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!checkedKeywords.has(key)) continue;
    kept[key] =
      key === 'properties' || key === 'patternProperties'
        ? Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, checkedSchema(inner)]))
        : checkedSchema(value);
  }
  return kept;
}

/**
 * The test script of one request: the answer is one of the operation's documented successes and
 * its JSON body matches that response's schema. A 429 is left to the collection's retry, whose
 * answer is checked in its turn; anything else (a 401 for a wrong secret, say) fails the run.
 * @param {SpecModel} model
 * @param {OperationEntry} operation
 */
function checkScript(model, operation) {
  const successes = operation.responseCodes.filter((code) => /^[23]\d\d$/.test(code));
  /** @type {Record<string, unknown>} */
  const schemas = {};
  for (const code of successes) {
    const response = /** @type {any} */ (model.dereference(operation.responses[code] ?? {}));
    const schema = response?.content?.['application/json']?.schema;
    if (schema) schemas[code] = checkedSchema(schema);
  }
  return `// Checks the answer against the spec: a documented success, and its body against the schema.
if (pm.response.code !== 429) {
  pm.test('${operation.operationId}: a documented success (${successes.join(', ')})', () => {
    pm.expect(pm.response.code).to.be.oneOf([${successes.join(', ')}]);
  });
  const schemas = ${JSON.stringify(schemas)};
  const schema = schemas[String(pm.response.code)];
  if (schema) pm.test('${operation.operationId}: the body matches the documented schema', () => {
    pm.response.to.have.jsonSchema(schema);
  });
}`;
}

/** Test steps that keep what a create made, for the delete of the same run. */
const keeps = {
  createProduct: `// Keeps the new product's number for "Delete a product".
if (pm.response.code === 201) pm.collectionVariables.set('createdProductNo', pm.response.json().product.product_no);`,
};
/**
 * Pre-request steps of the writes whose spec example names a record that an earlier request of
 * the run has changed: the step uses what that request made instead.
 * @type {Record<string, string>}
 */
const lookups = {
  deleteProduct: `// Deletes the product "Create a product" made in this run, if it ran (the samples' product
// is part of a bundle, which the API refuses to delete).
const created = pm.collectionVariables.get('createdProductNo');
if (created) pm.request.url.variables.upsert({ key: 'product_no', value: String(created) });`,
};

/**
 * The OAuth authorization-code flow's URLs as the spec states them (`yourmall` in the host).
 * @param {SpecModel} model
 */
function oauthFlow(model) {
  const schemes = model.resolveOptional(model.resolveOptional(model.document.components)?.securitySchemes);
  const flow = model.resolveOptional(
    model.resolveOptional(model.resolveOptional(schemes?.oauth2)?.flows)?.authorizationCode,
  );
  if (!flow) return undefined;
  return {
    authorizationUrl: String(flow.authorizationUrl),
    tokenUrl: String(flow.tokenUrl),
    scopes: Object.keys(model.resolveOptional(flow.scopes) ?? {}),
  };
}

/**
 * The value of a parameter in a Postman URL: its spec example, comma lists joined.
 * @param {SpecModel} model
 * @param {import('@mall-api/spec-model').OperationParameter} parameter
 */
function exampleText(model, parameter) {
  let value;
  try {
    value = parameterExample(model, parameter);
  } catch {
    return '';
  }
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * Aligns one converted request with its operation: parameters, body and auth.
 * @param {SpecModel} model
 * @param {OperationEntry} operation
 * @param {any} request
 */
function alignRequest(model, operation, request) {
  const byName = new Map(
    operation.parameters.map((parameter) => [`${parameter.in}:${parameter.name}`, parameter]),
  );
  for (const variable of request.url.variable ?? []) {
    const parameter = byName.get(`path:${variable.key}`);
    if (parameter) variable.value = exampleText(model, parameter);
  }
  // The parameter naming the mall read is the environment's mall, whose statistics its token reads.
  const mall = mallParameterOf(operation);
  for (const query of request.url.query ?? []) {
    const parameter = byName.get(`query:${query.key}`);
    if (!parameter) continue;
    query.value = query.key === mall ? '{{mallId}}' : exampleText(model, parameter);
    query.disabled = !parameter.required;
  }
  const body = requestBodyExample(model, operation);
  if (body)
    request.body = {
      mode: 'raw',
      raw: JSON.stringify(body.value, null, 2),
      options: { raw: { language: 'json' } },
    };
  delete request.auth;
}

/**
 * The OAuth endpoints' own requests: authorize with the environment's app, the token request
 * with a fresh code from a pre-request step and the client's credentials in a Basic header.
 * @param {OperationEntry} operation
 * @param {any} item
 */
function alignOAuthRequest(operation, item) {
  const { request } = item;
  if (operation.pathTemplate.endsWith('/oauth/authorize')) {
    /** @type {Record<string, string>} */
    const values = {
      response_type: 'code',
      client_id: '{{clientId}}',
      state: 'postman',
      redirect_uri: '{{redirectUri}}',
      scope: '{{scopes}}',
    };
    request.url.query = (request.url.query ?? [])
      .filter((/** @type {any} */ query) => query.key in values)
      .map((/** @type {any} */ query) => ({ ...query, value: values[query.key], disabled: false }));
    request.auth = { type: 'noauth' };
    return;
  }
  request.auth = {
    type: 'basic',
    basic: [
      { key: 'username', value: '{{clientId}}', type: 'string' },
      { key: 'password', value: '{{clientSecret}}', type: 'string' },
    ],
  };
  request.body = {
    mode: 'urlencoded',
    urlencoded: [
      { key: 'grant_type', value: 'authorization_code' },
      { key: 'code', value: '{{authorizationCode}}' },
      { key: 'redirect_uri', value: '{{redirectUri}}' },
    ],
  };
  item.event = [{ listen: 'prerequest', script: { type: 'text/javascript', exec: codeScript.split('\n') } }];
}

/** @param {any[]} items @returns {any[]} every request item, folders flattened */
export const requestItems = (items) =>
  items.flatMap((item) => (item.item ? requestItems(item.item) : [item]));

/**
 * How the spec's operation of a converted request is found: method and path with `:name` variables.
 * @param {string} method
 * @param {string} path
 */
const routeKey = (method, path) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;

/**
 * Orders the requests for a run against one sandbox: in each folder reads, creates, updates, then
 * deletes (each kind in spec order); folders of sub-resources (the deepest paths) before the
 * folders of what they belong to, and among equally deep folders the later ones first (bundles
 * before the products they bundle), so nothing is deleted before the requests that use it.
 * @param {any[]} items
 */
function orderForRun(items) {
  const rank = { GET: 0, POST: 1, PUT: 2, PATCH: 2, DELETE: 3 };
  const depth = (/** @type {any} */ item) =>
    item.item ? Math.max(...requestItems(item.item).map((request) => request.request.url.path.length)) : 0;
  const of = (/** @type {any} */ item) =>
    item.item ? -depth(item) : (rank[/** @type {keyof typeof rank} */ (item.request.method)] ?? 1);
  for (const item of items) if (item.item) item.item = orderForRun(item.item);
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => of(a.item) - of(b.item) || (a.item.item ? b.index - a.index : a.index - b.index))
    .map(({ item }) => item);
}

/**
 * The environments of an API: the local sandbox (the demo credentials, the local mocks) and a
 * "your mall" one whose secrets are empty.
 * @param {string} api
 * @param {Record<string, string>} local the local sandbox's values
 * @param {Record<string, string>} yours the values for a real mall
 */
function environments(api, local, yours) {
  /** @param {string} name @param {Record<string, string>} values @param {string[]} secrets */
  const environment = (name, values, secrets) => ({
    name,
    values: Object.entries(values).map(([key, value]) => ({
      key,
      value,
      type: secrets.includes(key) ? 'secret' : 'default',
      enabled: true,
    })),
    _postman_variable_scope: 'environment',
  });
  const secrets = ['clientSecret', 'accessToken', 'refreshToken'];
  return [
    {
      file: `${api}.local-sandbox.postman_environment.json`,
      json: environment(`${api}: local sandbox`, local, []),
    },
    {
      file: `${api}.your-mall.postman_environment.json`,
      json: environment(`${api}: your mall`, yours, secrets),
    },
  ];
}

/**
 * The Postman collection (v2.1) of an API and its environments.
 * @param {{ name: string, model: SpecModel, mockUrl: string, oauthMockUrl: string, demo: { clientId: string, clientSecret: string } }} api
 *   `oauthMockUrl` is the local mock serving the OAuth endpoints (the admin mock); `demo` the
 *   local sandbox's demo client (the Basic partner, or the OAuth app).
 * @returns {Promise<{ collection: Record<string, any>, environments: { file: string, json: Record<string, unknown> }[] }>}
 */
export async function postmanCollection({ name, model, mockUrl, oauthMockUrl, demo }) {
  // Written before the conversion, which rewrites parts of the document it is given (it resolves
  // `anyOf` to one branch for its own examples).
  const checks = new Map(model.operations.map((operation) => [operation, checkScript(model, operation)]));
  /** @type {any} */
  const result = await new Promise((resolve, reject) =>
    Converter.convertV2(
      { type: 'json', data: model.document },
      {
        folderStrategy: 'Tags',
        parametersResolution: 'Example',
        enableOptionalParameters: false,
        alwaysInheritAuthentication: true,
      },
      (/** @type {unknown} */ error, /** @type {unknown} */ converted) =>
        error ? reject(error) : resolve(converted),
    ),
  );
  if (!result?.result) throw new Error(`openapi-to-postmanv2: ${result?.reason ?? 'conversion failed'}`);
  const collection = result.output[0].data;
  const operations = new Map(
    model.operations.map((operation) => [routeKey(operation.method, operation.pathTemplate), operation]),
  );
  for (const item of requestItems(collection.item)) {
    const { request } = item;
    request.url.host = ['{{baseUrl}}'];
    const key = routeKey(request.method, `/${request.url.path.join('/')}`);
    const operation = operations.get(key);
    if (!operation) throw new Error(`${name}: no operation for ${key}`);
    alignRequest(model, operation, request);
    if (operation.pathTemplate.includes('/oauth/')) alignOAuthRequest(operation, item);
    const lookup = lookups[operation.operationId];
    const keep = keeps[/** @type {keyof typeof keeps} */ (operation.operationId)];
    if (lookup)
      item.event = [
        {
          listen: 'prerequest',
          script: { type: 'text/javascript', exec: lookup.split('\n') },
        },
      ];
    const check = checks.get(operation) ?? '';
    item.event = [
      ...(item.event ?? []),
      {
        listen: 'test',
        script: { type: 'text/javascript', exec: [check, ...(keep ? [keep] : [])].join('\n').split('\n') },
      },
    ];
  }
  collection.item = orderForRun(collection.item);

  collection.event = [{ listen: 'test', script: { type: 'text/javascript', exec: retryScript.split('\n') } }];
  const flow = oauthFlow(model);
  const common = { baseUrl: mockUrl, clientId: demo.clientId, clientSecret: demo.clientSecret };
  const production = {
    baseUrl: productionUrlOf(model.document, (variable, fallback) =>
      variable === 'mall_id' ? '{{mallId}}' : fallback,
    ),
    clientId: '',
    clientSecret: '',
  };
  /** @type {Record<string, string>} */
  let local = common;
  /** @type {Record<string, string>} */
  let yours = production;
  if (flow) {
    const path = (/** @type {string} */ url) => new URL(url).pathname;
    local = {
      ...common,
      mallId: 'demomall',
      authUrl: `${oauthMockUrl}${path(flow.authorizationUrl)}`,
      accessTokenUrl: `${oauthMockUrl}${path(flow.tokenUrl)}`,
      redirectUri: postmanRedirectUri,
      scopes: flow.scopes.join(','),
      sandboxConsent: 'true',
      accessToken: '',
      refreshToken: '',
    };
    yours = {
      ...production,
      mallId: '',
      authUrl: flow.authorizationUrl.replace('yourmall', '{{mallId}}'),
      accessTokenUrl: flow.tokenUrl.replace('yourmall', '{{mallId}}'),
      redirectUri: postmanRedirectUri,
      scopes: flow.scopes.join(','),
      sandboxConsent: 'false',
      accessToken: '',
      refreshToken: '',
    };
    collection.auth = {
      type: 'oauth2',
      oauth2: [
        ['accessToken', '{{accessToken}}'],
        ['addTokenTo', 'header'],
        ['headerPrefix', 'Bearer'],
        ['grant_type', 'authorization_code'],
        ['authUrl', '{{authUrl}}'],
        ['accessTokenUrl', '{{accessTokenUrl}}'],
        ['redirect_uri', '{{redirectUri}}'],
        ['clientId', '{{clientId}}'],
        ['clientSecret', '{{clientSecret}}'],
        ['scope', '{{scopes}}'],
        ['client_authentication', 'header'],
        ['tokenName', `${name} (mall-api)`],
      ].map(([key, value]) => ({ key, value, type: 'string' })),
    };
    collection.event.push({
      listen: 'prerequest',
      script: { type: 'text/javascript', exec: tokenScript.split('\n') },
    });
  } else {
    collection.auth = {
      type: 'basic',
      basic: [
        { key: 'username', value: '{{clientId}}', type: 'string' },
        { key: 'password', value: '{{clientSecret}}', type: 'string' },
      ],
    };
  }
  // The collection's own variables are the local sandbox's, so it runs without an environment too.
  collection.variable = Object.entries(local).map(([key, value]) => ({ key, value, type: 'string' }));
  return { collection, environments: environments(name, local, yours) };
}
