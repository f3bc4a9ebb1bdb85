// @ts-check
// Generates the code samples of the references from the spec model, so they cannot drift from
// the specs: for every operation a TypeScript sample using our client for that API (the
// operation's required parameters and its first request-body example, taken from the spec), and
// the same request in curl, Python and PHP against the API's local mock, written by httpsnippet
// (see http-snippets.mjs). The OAuth endpoints get samples using @mall-api/auth instead. The docs
// build writes the samples into its copies of the specs as `x-codeSamples`; the docs tests
// type-check every TypeScript sample against the built clients and run every sample (TypeScript,
// curl, Python and PHP) against the default sandbox mocks. Not for the hand-written specs or `specs/dist`, which never carry samples.
import { snippetOf } from './http-snippets.mjs';
import { parameterExample, requestBodyExample, typedValue } from './spec-examples.mjs';

/** @typedef {import('@mall-api/spec-model').SpecModel} SpecModel */
/** @typedef {import('@mall-api/spec-model').OperationEntry} OperationEntry */
/** @typedef {import('@mall-api/spec-model').OperationParameter} OperationParameter */
/** @typedef {import('./http-snippets.mjs').SampleRequest} SampleRequest */
/** @typedef {import('./http-snippets.mjs').SnippetLanguage} SnippetLanguage */

/**
 * The client options of the OAuth APIs' samples: the local mock and an access token.
 * @param {string} mockUrl
 */
const bearerOptions = (mockUrl) => [
  '// The local mock; omit baseUrl in production.',
  `baseUrl: '${mockUrl}',`,
  '// Or a token manager (see Authentication).',
  `auth: { accessToken: process.env.MALL_ACCESS_TOKEN ?? '' },`,
];

/**
 * How the TypeScript samples of each API create their client, and how the plain requests
 * authenticate (Basic with the demo partner, or the bearer token in `$MALL_ACCESS_TOKEN`).
 * @type {Record<string, { package: string, factory: string, options: (mockUrl: string) => string[],
 *   requestAuth: { kind: 'basic', clientId: string, clientSecret: string } | { kind: 'bearer' } }>}
 */
const clientProfiles = {
  collection: {
    package: '@mall-api/collection-client',
    factory: 'createCollectionClient',
    options: (mockUrl) => [
      `clientId: 'demo-partner',`,
      `clientSecret: 'demo-partner-secret',`,
      '// The local mock; omit baseUrl in production.',
      `baseUrl: '${mockUrl}',`,
    ],
    requestAuth: { kind: 'basic', clientId: 'demo-partner', clientSecret: 'demo-partner-secret' },
  },
  admin: {
    package: '@mall-api/admin-client',
    factory: 'createAdminClient',
    options: (mockUrl) => [`mallId: 'demomall',`, ...bearerOptions(mockUrl)],
    requestAuth: { kind: 'bearer' },
  },
  analytics: {
    package: '@mall-api/analytics-client',
    factory: 'createAnalyticsClient',
    options: bearerOptions,
    requestAuth: { kind: 'bearer' },
  },
};

/** The demo OAuth app the mocks register (see @mall-api/mock-server), used by the OAuth samples. */
export const demoOAuthSample = {
  clientId: 'demo-app',
  clientSecret: 'demo-app-secret',
  redirectUri: 'http://127.0.0.1:8900/callback',
};

/**
 * The local mock's address, from the spec's `servers` (the loopback entry).
 * @param {any} document
 * @returns {string}
 */
export function mockUrlOf(document) {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const server = servers.find((/** @type {any} */ entry) =>
    /^http:\/\/127\.0\.0\.1:\d+$/.test(String(entry?.url)),
  );
  if (!server) throw new Error(`${document.info?.title}: no local mock server in servers`);
  return String(server.url);
}

/**
 * The production address from the spec's `servers` (the entry that is not the local mock), each
 * `{name}` server variable written by `variable` (by default, the variable's default value).
 * @param {any} document
 * @param {(name: string, fallback: string) => string} [variable]
 * @returns {string}
 */
export function productionUrlOf(document, variable = (_name, fallback) => fallback) {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const server = servers.find(
    (/** @type {any} */ entry) => !/^http:\/\/127\.0\.0\.1/.test(String(entry?.url)),
  );
  if (!server) throw new Error(`${document.info?.title}: no production server in servers`);
  const variables = server.variables ?? {};
  return String(server.url).replace(/\{([^}]+)\}/g, (/** @type {string} */ _, /** @type {string} */ name) =>
    variable(name, String(variables[name]?.default ?? '')),
  );
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** @param {unknown} text */
const quote = (text) => `'${String(text).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

/** @param {string} name */
const literalKey = (name) => (identifier.test(name) ? name : quote(name));

/**
 * The literal on one line.
 * @param {unknown} value
 * @returns {string}
 */
function flatLiteral(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(flatLiteral).join(', ')}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([name, item]) => `${literalKey(name)}: ${flatLiteral(item)}`).join(', ')} }`;
}

/**
 * Formats a JSON value as a TypeScript literal (unquoted keys where possible, single quotes): on
 * one line when it fits in about 80 columns at `indent`, otherwise one entry per line.
 * @param {unknown} value
 * @returns {string}
 */
export function tsLiteral(value, indent = '') {
  const flat = flatLiteral(value);
  if (value === null || typeof value !== 'object' || flat.length <= 56 - indent.length) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((item) => `${inner}${tsLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const lines = Object.entries(value).map(
    ([name, item]) => `${inner}${literalKey(name)}: ${tsLiteral(item, inner)},`,
  );
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/**
 * The required parameters of an operation, by location, with example values typed per schema.
 * @param {SpecModel} model
 * @param {OperationEntry} operation
 */
function requiredParameters(model, operation) {
  /** @type {{ path: Record<string, any>, query: Record<string, any> }} */
  const grouped = { path: {}, query: {} };
  for (const parameter of operation.parameters) {
    if (!parameter.required || (parameter.in !== 'path' && parameter.in !== 'query')) continue;
    grouped[parameter.in][parameter.name] = typedValue(model, parameter, parameterExample(model, parameter));
  }
  return grouped;
}

/**
 * The path with its `{name}` segments filled in.
 * @param {string} path
 * @param {Record<string, unknown>} values
 */
const fillPath = (path, values) =>
  path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(values[name])));

/** @param {Record<string, unknown>} query as HAR query entries, comma lists joined */
const harQuery = (query) =>
  Object.entries(query).map(([name, value]) => ({
    name,
    value: Array.isArray(value) ? value.join(',') : String(value),
  }));

/**
 * The authorization header of a request to the API named `api`.
 * @param {string} api
 */
function authorizationHeader(api) {
  const profile = clientProfiles[api];
  if (!profile) throw new Error(`no client profile for the ${api} API`);
  return profile.requestAuth.kind === 'basic'
    ? `Basic ${btoa(`${profile.requestAuth.clientId}:${profile.requestAuth.clientSecret}`)}`
    : 'Bearer $MALL_ACCESS_TOKEN';
}

/**
 * Samples of an ordinary operation: our client, and the request in curl, Python and PHP against
 * the mock.
 * @param {SpecModel} model
 * @param {string} api
 * @param {OperationEntry} operation
 */
function clientSamples(model, api, operation) {
  const profile = clientProfiles[api];
  if (!profile) throw new Error(`no client profile for the ${api} API`);
  const mockUrl = mockUrlOf(model.document);
  const { pathTemplate: path, method } = operation;
  const params = requiredParameters(model, operation);
  const body = requestBodyExample(model, operation);

  const init = [];
  const present = Object.fromEntries(
    Object.entries(params).filter(([, values]) => Object.keys(values).length > 0),
  );
  if (Object.keys(present).length > 0) init.push(`  params: ${tsLiteral(present, '  ')},`);
  if (body?.value !== undefined) init.push(`  body: ${tsLiteral(body.value, '  ')},`);
  const call = `client.${method.toUpperCase()}('${path}'${init.length > 0 ? `, {\n${init.join('\n')}\n}` : ''})`;
  const typescript = [
    `import { ${profile.factory} } from '${profile.package}';`,
    '',
    `const client = ${profile.factory}({`,
    ...profile.options(mockUrl).map((line) => `  ${line}`),
    '});',
    '',
    `const { data, error } = await ${call};`,
    'if (error) throw new Error(error.error.message);',
    'console.log(data);',
    '',
  ].join('\n');

  /** @type {SampleRequest} */
  const request = {
    method: method.toUpperCase(),
    url: `${mockUrl}${fillPath(path, params.path)}`,
    queryString: harQuery(params.query),
    headers: [
      { name: 'Authorization', value: authorizationHeader(api) },
      ...(body ? [{ name: 'Content-Type', value: body.mediaType }] : []),
    ],
    ...(body ? { postData: { mimeType: body.mediaType, text: JSON.stringify(body.value) } } : {}),
  };
  return { typescript, ...requestSamples([{ request }]) };
}

/**
 * The curl, Python and PHP code of one or more requests (each after its comment, if any).
 * @param {{ comment?: string, request: SampleRequest }[]} steps
 * @returns {Record<SnippetLanguage, string>}
 */
function requestSamples(steps) {
  /** @param {SnippetLanguage} language */
  const code = (language) =>
    steps
      .map(({ comment, request }, index) => {
        const text = snippetOf(language, request);
        // PHP's opening tag and Python's imports are written once, before the first comment.
        const [, head = '', rest = text] = /^(<\?php\n\n|(?:import \w+\n)+\n?)?([\s\S]*)$/.exec(text) ?? [];
        return `${index === 0 ? head : ''}${comment ? `# ${comment}\n` : ''}${rest}`;
      })
      .join('\n\n');
  return { curl: code('curl'), python: code('python'), php: code('php') };
}

/**
 * The OAuth endpoints of a spec (authorize, token), from its authorization-code flow.
 * @param {SpecModel} model
 */
export function oauthEndpoints(model) {
  /** @type {any} */
  const components = model.document.components;
  for (const scheme of Object.values(components?.securitySchemes ?? {})) {
    /** @type {any} */
    const flow = /** @type {any} */ (model.resolveOptional(scheme))?.flows?.authorizationCode;
    if (flow) {
      return {
        authorize: new URL(flow.authorizationUrl.replace(/\{[^}]+\}/g, 'mall')).pathname,
        token: new URL(flow.tokenUrl.replace(/\{[^}]+\}/g, 'mall')).pathname,
      };
    }
  }
  return undefined;
}

/**
 * Samples of the authorize endpoint: build the URL the operator's browser is sent to.
 * @param {SpecModel} model
 * @param {OperationEntry} operation
 */
function authorizeSamples(model, operation) {
  const mockUrl = mockUrlOf(model.document);
  const scope = operation.parameters.find((parameter) => parameter.name === 'scope');
  if (!scope) throw new Error(`${operation.operationId}: no scope parameter`);
  const scopes = typedValue(model, scope, parameterExample(model, scope));
  const { clientId, redirectUri } = demoOAuthSample;
  const typescript = [
    `import { buildAuthorizeUrl, verifyState } from '@mall-api/auth';`,
    '',
    '// Send the operator’s browser to `url`; keep `state`',
    '// in their session until the redirect comes back.',
    'const { url, state } = buildAuthorizeUrl({',
    '  // The local mock; https://{mall_id}.cafe24api.com',
    '  // in production.',
    `  mallBaseUrl: '${mockUrl}',`,
    `  clientId: '${clientId}',`,
    `  redirectUri: '${redirectUri}',`,
    `  scopes: ${tsLiteral(scopes, '  ')},`,
    '});',
    'console.log(url);',
    '',
    '// The redirect URI receives ?code=…&state=…:',
    '// check the state before exchanging the code.',
    'export function codeFromRedirect(callback: URL): string {',
    "  verifyState(state, callback.searchParams.get('state'));",
    "  return callback.searchParams.get('code') ?? '';",
    '}',
    '',
  ].join('\n');
  /** @type {SampleRequest} */
  const request = {
    method: 'GET',
    url: `${mockUrl}${operation.pathTemplate}`,
    headers: [],
    queryString: harQuery({
      response_type: 'code',
      client_id: clientId,
      state: 'c29tZS1yYW5kb20tc3RhdGU',
      redirect_uri: redirectUri,
      scope: scopes,
    }),
    showsRedirect: true,
  };
  return {
    typescript,
    ...requestSamples([
      { comment: 'The mock approves at once: it answers 302 with the code in Location', request },
    ]),
  };
}

/**
 * Samples of the token endpoint: exchange a code, then rotate the refresh token.
 * @param {SpecModel} model
 * @param {OperationEntry} operation
 */
function tokenSamples(model, operation) {
  const mockUrl = mockUrlOf(model.document);
  const { clientId, clientSecret, redirectUri } = demoOAuthSample;
  const typescript = [
    `import { exchangeCode, refreshToken } from '@mall-api/auth';`,
    '',
    'const app = {',
    '  // The local mock; https://{mall_id}.cafe24api.com',
    '  // in production.',
    `  mallBaseUrl: '${mockUrl}',`,
    `  clientId: '${clientId}',`,
    `  clientSecret: '${clientSecret}',`,
    '};',
    '',
    '// grant_type=authorization_code: the code from the',
    '// redirect is single-use and valid one minute.',
    'const tokens = await exchangeCode({',
    '  ...app,',
    "  code: process.env.AUTHORIZATION_CODE ?? '',",
    `  redirectUri: '${redirectUri}',`,
    '});',
    '',
    '// grant_type=refresh_token: the answer carries a NEW',
    '// refresh token and voids the old one, so persist it',
    '// before use (createTokenManager does this for you).',
    'const renewed = await refreshToken({ ...app, refreshToken: tokens.refreshToken });',
    'console.log(renewed.accessTokenExpiresAt, renewed.refreshTokenExpiresAt);',
    '',
  ].join('\n');
  /** @param {Record<string, string>} form @returns {SampleRequest} */
  const tokenRequest = (form) => ({
    method: 'POST',
    url: `${mockUrl}${operation.pathTemplate}`,
    headers: [
      { name: 'Authorization', value: `Basic ${btoa(`${clientId}:${clientSecret}`)}` },
      { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
    ],
    postData: {
      mimeType: 'application/x-www-form-urlencoded',
      params: Object.entries(form).map(([name, value]) => ({ name, value })),
    },
  });
  return {
    typescript,
    ...requestSamples([
      {
        comment: 'grant_type=authorization_code (the code from the authorize redirect)',
        request: tokenRequest({
          grant_type: 'authorization_code',
          code: '$AUTHORIZATION_CODE',
          redirect_uri: redirectUri,
        }),
      },
      {
        comment: 'grant_type=refresh_token (the old refresh token stops working)',
        request: tokenRequest({ grant_type: 'refresh_token', refresh_token: '$REFRESH_TOKEN' }),
      },
    ]),
  };
}

/**
 * The samples of every operation of the API named `api`, in the model's operation order:
 * `{ operationId, method, path, typescript, curl, python, php }`. Values written `$NAME` in the
 * curl, Python and PHP code are read from the environment (`MALL_ACCESS_TOKEN`, and for the token
 * endpoint `AUTHORIZATION_CODE` and `REFRESH_TOKEN`).
 * @param {string} api
 * @param {SpecModel} model
 */
export function codeSamplesOf(api, model) {
  const oauth = oauthEndpoints(model);
  return model.operations.map((operation) => {
    const samples =
      oauth && operation.pathTemplate === oauth.authorize
        ? authorizeSamples(model, operation)
        : oauth && operation.pathTemplate === oauth.token
          ? tokenSamples(model, operation)
          : clientSamples(model, api, operation);
    return {
      operationId: operation.operationId,
      method: operation.method,
      path: operation.pathTemplate,
      ...samples,
    };
  });
}

/**
 * The `x-codeSamples` of one operation's samples, in the order the references show them. Redoc's
 * bundle has no TypeScript grammar, so the TypeScript sample is highlighted as JavaScript (`lang`)
 * and labelled TypeScript (`label`), which is what the reader sees on the tab.
 * @param {{ typescript: string, curl: string, python: string, php: string }} sample
 */
export const codeSampleTabs = (sample) => [
  { lang: 'JavaScript', label: 'TypeScript', source: sample.typescript },
  { lang: 'Shell', label: 'curl', source: sample.curl },
  { lang: 'Python', label: 'Python', source: sample.python },
  { lang: 'PHP', label: 'PHP', source: sample.php },
];

/**
 * A copy of the model's document with `x-codeSamples` on every operation (TypeScript, curl,
 * Python and PHP) from `samples` (see {@link codeSamplesOf}).
 * @param {SpecModel} model
 * @param {ReturnType<typeof codeSamplesOf>} samples
 */
export function withCodeSamples(model, samples) {
  /** @type {any} */
  const copy = structuredClone(model.document);
  for (const sample of samples) {
    const operation = copy.paths?.[sample.path]?.[sample.method];
    if (!operation) throw new Error(`${sample.operationId} is not inline in the bundle's paths`);
    operation['x-codeSamples'] = codeSampleTabs(sample);
  }
  return copy;
}
