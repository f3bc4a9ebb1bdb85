// Generates the code samples of the references from the bundled specs, so they cannot drift from
// them: for every operation a TypeScript sample using our client for that API (the operation's
// required parameters and its first request-body example, taken from the spec) and a curl sample
// against the API's local mock. The OAuth endpoints get samples using @mall-api/auth instead.
// Each sample also carries the plain request it makes, so a test can send it to the mock. The docs
// build writes the samples into its copies of the specs as `x-codeSamples`; the docs tests
// type-check every TypeScript sample against the built clients and send every request. Not for
// the hand-written specs or `specs/dist`, which never carry samples.

/** The client options of the OAuth APIs' samples: the local mock and an access token. */
const bearerOptions = (mockUrl) => [
  '// The local mock; omit baseUrl in production.',
  `baseUrl: '${mockUrl}',`,
  '// Or a token manager (see Authentication).',
  `auth: { accessToken: process.env.MALL_ACCESS_TOKEN ?? '' },`,
];

/** How curl and the plain requests of the OAuth APIs' samples authenticate. */
const bearerAuth = {
  curlAuth: ['-H "Authorization: Bearer $MALL_ACCESS_TOKEN"'],
  requestAuth: { kind: 'bearer' },
};

/** How the TypeScript samples of each API create their client, and how curl authenticates. */
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
    curlAuth: ['-u demo-partner:demo-partner-secret'],
    requestAuth: { kind: 'basic', clientId: 'demo-partner', clientSecret: 'demo-partner-secret' },
  },
  admin: {
    package: '@mall-api/admin-client',
    factory: 'createAdminClient',
    options: (mockUrl) => [`mallId: 'demomall',`, ...bearerOptions(mockUrl)],
    ...bearerAuth,
  },
  analytics: {
    package: '@mall-api/analytics-client',
    factory: 'createAnalyticsClient',
    options: bearerOptions,
    ...bearerAuth,
  },
};

/** The demo OAuth app the mocks register (see @mall-api/mock-server), used by the OAuth samples. */
export const demoOAuthSample = {
  clientId: 'demo-app',
  clientSecret: 'demo-app-secret',
  redirectUri: 'http://127.0.0.1:8900/callback',
};

const methods = ['get', 'put', 'post', 'delete', 'patch'];

/** Resolves a local `$ref` (repeatedly) inside `spec`. */
function deref(spec, node) {
  let current = node;
  const seen = new Set();
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    if (seen.has(current.$ref)) throw new Error(`circular $ref ${current.$ref}`);
    seen.add(current.$ref);
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((parent, key) => parent?.[key], spec);
  }
  return current;
}

/** The local mock's address, from the spec's `servers` (the loopback entry). */
export function mockUrlOf(spec) {
  const server = (spec.servers ?? []).find((entry) => /^http:\/\/127\.0\.0\.1:\d+$/.test(entry.url));
  if (!server) throw new Error(`${spec.info?.title}: no local mock server in servers`);
  return server.url;
}

/** Every operation of a spec, in document order, with its path-level parameters merged in. */
export function operationsOf(spec) {
  const operations = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) =>
        deref(spec, p),
      );
      operations.push({ path, method, operation, parameters });
    }
  }
  return operations;
}

/** The example value of a parameter: its own example(s), else its schema's example, default or first enum. */
function parameterExample(spec, parameter) {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values(parameter.examples ?? {})[0];
  if (named !== undefined) return deref(spec, named).value;
  const schema = deref(spec, parameter.schema) ?? {};
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  throw new Error(`parameter ${parameter.name} has no example`);
}

/** The value typed as the schema says: arrays as arrays (a comma string is split), numbers as numbers. */
function typedValue(spec, parameter, value) {
  const schema = deref(spec, parameter.schema) ?? {};
  if (schema.type === 'array') {
    const items = Array.isArray(value) ? value : String(value).split(',');
    const itemType = deref(spec, schema.items)?.type;
    return items.map((item) => (itemType === 'integer' || itemType === 'number' ? Number(item) : item));
  }
  if ((schema.type === 'integer' || schema.type === 'number') && typeof value === 'string')
    return Number(value);
  return value;
}

/** The first example of the operation's JSON request body, if it has one. */
function requestBodyExample(spec, operation) {
  const body = deref(spec, operation.requestBody);
  if (!body) return undefined;
  const [mediaType, media] = Object.entries(body.content ?? {})[0] ?? [];
  if (!media) return undefined;
  const named = Object.values(media.examples ?? {})[0];
  const value = named !== undefined ? deref(spec, named).value : media.example;
  if (value === undefined && body.required) throw new Error(`${operation.operationId}: no request example`);
  return { mediaType, value };
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const quote = (text) => `'${String(text).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

const literalKey = (name) => (identifier.test(name) ? name : quote(name));

/** The literal on one line. */
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

/** A query string with comma lists left readable (`a=1,2` rather than `a=1%2C2`). */
function queryString(query) {
  const encode = (text) => encodeURIComponent(String(text)).replace(/%2C/gi, ',');
  return Object.entries(query)
    .map(
      ([name, value]) =>
        `${encode(name)}=${Array.isArray(value) ? value.map(encode).join(',') : encode(value)}`,
    )
    .join('&');
}

/** JSON on one line, with a space after each `,` and `:` between tokens. */
function flatJson(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(flatJson).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([name, item]) => `${JSON.stringify(name)}: ${flatJson(item)}`)
    .join(', ')}}`;
}

/** JSON text laid out like {@link tsLiteral}: what fits on a line stays on one line. */
export function jsonText(value, indent = '') {
  const flat = flatJson(value);
  if (value === null || typeof value !== 'object' || flat.length <= 60 - indent.length) return flat;
  const inner = `${indent}  `;
  const lines = Array.isArray(value)
    ? value.map((item) => `${inner}${jsonText(item, inner)}`)
    : Object.entries(value).map(
        ([name, item]) => `${inner}${JSON.stringify(name)}: ${jsonText(item, inner)}`,
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${lines.join(',\n')}\n${indent}${close}`;
}

const shellQuote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;

/** Joins curl arguments one per continued line. */
const curlCommand = (parts) => `curl ${parts.join(' \\\n  ')}`;

/** The required parameters of an operation, by location, with example values typed per schema. */
function requiredParameters(spec, parameters) {
  const grouped = { path: {}, query: {} };
  for (const parameter of parameters) {
    if (!parameter.required || !(parameter.in in grouped)) continue;
    grouped[parameter.in][parameter.name] = typedValue(spec, parameter, parameterExample(spec, parameter));
  }
  return grouped;
}

/** The path with its `{name}` segments filled in. */
const fillPath = (path, values) =>
  path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(values[name])));

/** Samples of an ordinary operation: our client, and curl against the mock. */
function clientSamples(spec, api, entry) {
  const profile = clientProfiles[api];
  if (!profile) throw new Error(`no client profile for the ${api} API`);
  const mockUrl = mockUrlOf(spec);
  const { path, method, operation, parameters } = entry;
  const params = requiredParameters(spec, parameters);
  const body = requestBodyExample(spec, operation);

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

  const query = queryString(params.query);
  const url = `${mockUrl}${fillPath(path, params.path)}${query ? `?${query}` : ''}`;
  const curlParts = [...profile.curlAuth];
  if (body?.value !== undefined) {
    curlParts.push(`-X ${method.toUpperCase()} -H 'Content-Type: ${body.mediaType}'`);
    curlParts.push(`-d ${shellQuote(jsonText(body.value, '  '))}`);
  } else if (method !== 'get') curlParts.push(`-X ${method.toUpperCase()}`);
  curlParts.push(shellQuote(url));
  return {
    typescript,
    curl: curlCommand(curlParts),
    requests: [
      {
        method: method.toUpperCase(),
        url,
        auth: profile.requestAuth,
        ...(body?.value !== undefined
          ? { contentType: body.mediaType, body: JSON.stringify(body.value) }
          : {}),
      },
    ],
  };
}

/** The OAuth endpoints of a spec (authorize, token), from its authorization-code flow. */
function oauthEndpoints(spec) {
  for (const scheme of Object.values(spec.components?.securitySchemes ?? {})) {
    const flow = deref(spec, scheme)?.flows?.authorizationCode;
    if (flow) {
      return {
        authorize: new URL(flow.authorizationUrl.replace(/\{[^}]+\}/g, 'mall')).pathname,
        token: new URL(flow.tokenUrl.replace(/\{[^}]+\}/g, 'mall')).pathname,
      };
    }
  }
  return undefined;
}

/** Samples of the authorize endpoint: build the URL the operator's browser is sent to. */
function authorizeSamples(spec, entry) {
  const mockUrl = mockUrlOf(spec);
  const scope = entry.parameters.find((parameter) => parameter.name === 'scope');
  const scopes = typedValue(spec, scope, parameterExample(spec, scope));
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
  const url = `${mockUrl}${entry.path}?${queryString({
    response_type: 'code',
    client_id: clientId,
    state: 'c29tZS1yYW5kb20tc3RhdGU',
    redirect_uri: redirectUri,
    scope: scopes,
  })}`;
  return {
    typescript,
    curl: [
      '# The mock approves at once: it answers 302 with the code in Location',
      curlCommand(['-i', shellQuote(url)]),
    ].join('\n'),
    requests: [{ method: 'GET', url, auth: { kind: 'none' }, expectStatus: 302 }],
  };
}

/** Samples of the token endpoint: exchange a code, then rotate the refresh token. */
function tokenSamples(spec, entry) {
  const mockUrl = mockUrlOf(spec);
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
  const url = `${mockUrl}${entry.path}`;
  const curl = [
    '# grant_type=authorization_code (the code from the authorize redirect)',
    curlCommand([
      `-u ${clientId}:${clientSecret}`,
      '-d grant_type=authorization_code',
      '-d "code=$AUTHORIZATION_CODE"',
      `-d ${shellQuote(`redirect_uri=${redirectUri}`)}`,
      shellQuote(url),
    ]),
    '',
    '# grant_type=refresh_token (the old refresh token stops working)',
    curlCommand([
      `-u ${clientId}:${clientSecret}`,
      '-d grant_type=refresh_token',
      '-d "refresh_token=$REFRESH_TOKEN"',
      shellQuote(url),
    ]),
  ].join('\n');
  return {
    typescript,
    curl,
    requests: [
      {
        method: 'POST',
        url,
        auth: { kind: 'basic', clientId, clientSecret },
        contentType: 'application/x-www-form-urlencoded',
        form: { grant_type: 'authorization_code', code: '$AUTHORIZATION_CODE', redirect_uri: redirectUri },
      },
      {
        method: 'POST',
        url,
        auth: { kind: 'basic', clientId, clientSecret },
        contentType: 'application/x-www-form-urlencoded',
        form: { grant_type: 'refresh_token', refresh_token: '$REFRESH_TOKEN' },
      },
    ],
  };
}

/**
 * The samples of every operation of `spec` (the API named `api`), in document order:
 * `{ operationId, method, path, typescript, curl, requests }`. `requests` are the plain requests
 * the curl sample sends (values starting with `$` are filled in by whoever sends them).
 */
export function codeSamplesOf(api, spec) {
  const oauth = oauthEndpoints(spec);
  return operationsOf(spec).map((entry) => {
    const samples =
      oauth && entry.path === oauth.authorize
        ? authorizeSamples(spec, entry)
        : oauth && entry.path === oauth.token
          ? tokenSamples(spec, entry)
          : clientSamples(spec, api, entry);
    return { operationId: entry.operation.operationId, method: entry.method, path: entry.path, ...samples };
  });
}

/**
 * A copy of `spec` with `x-codeSamples` on every operation: TypeScript and curl. Redoc's bundle
 * has no TypeScript grammar, so the TypeScript sample is highlighted as JavaScript (`lang`) and
 * labelled TypeScript (`label`), which is what the reader sees on the tab.
 */
export function withCodeSamples(api, spec) {
  const copy = structuredClone(spec);
  const samples = new Map(
    codeSamplesOf(api, spec).map((sample) => [`${sample.method} ${sample.path}`, sample]),
  );
  for (const [path, item] of Object.entries(copy.paths ?? {})) {
    for (const method of methods) {
      const sample = samples.get(`${method} ${path}`);
      if (!item[method] || !sample) continue;
      item[method]['x-codeSamples'] = [
        { lang: 'JavaScript', label: 'TypeScript', source: sample.typescript },
        { lang: 'Shell', label: 'curl', source: sample.curl },
      ];
    }
  }
  return copy;
}
