// @ts-check
// The Try it console's placeholders that name records, taken from the default sandbox at build
// time: the mocks are started in this process as `npm start` starts them (the sandbox package's
// sample mall of seed 1, the demo mall), each read-only operation of the console is sent as the
// console pre-fills it (its required fields), and every optional query parameter whose name is a
// field of what it answers gets the first value of that field as its example — a shop, product,
// category or code the reader's sandbox has, where the spec's own example names a record of the
// platform's. Parameters that name no record (limits, dates, sort orders) keep the spec's example.
import { demoCollectionClients, issueDemoTokens, startMockServers } from '@mall-api/mock-server';

/** @typedef {import('../src/browser/console-model.js').ConsoleApi} ConsoleApi */
/** @typedef {import('../src/browser/console-model.js').ConsoleOperation} ConsoleOperation */

/** The mall a reader's token names in the default sandbox (the demo mall `npm start` prints). */
const demoMall = 'demomall';

/**
 * The first scalar value under key `name` in `node`, the shallowest first (a record's own field
 * before one of the records nested in it), breadth first.
 * @param {unknown} node
 * @param {string} name
 * @returns {string | number | boolean | undefined}
 */
export function firstValueOf(node, name) {
  /** @type {unknown[]} */
  let level = [node];
  while (level.length > 0) {
    /** @type {unknown[]} */
    const next = [];
    for (const item of level) {
      if (Array.isArray(item)) next.push(...item);
      else if (item !== null && typeof item === 'object') {
        for (const [key, value] of Object.entries(item)) {
          if (key === name && ['string', 'number', 'boolean'].includes(typeof value))
            return /** @type {string | number | boolean} */ (value);
          next.push(value);
        }
      }
    }
    level = next;
  }
  return undefined;
}

/**
 * The URL and headers of `operation` with only its required fields, pre-filled as the console does.
 * @param {ConsoleOperation} operation
 * @param {string} baseUrl
 */
function requiredRequest(operation, baseUrl) {
  const query = new URLSearchParams();
  /** @type {Record<string, string>} */
  const headers = {};
  let path = operation.path;
  for (const parameter of operation.parameters.filter((entry) => entry.required)) {
    if (parameter.in === 'path')
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(parameter.example));
    else if (parameter.in === 'query') query.set(parameter.name, parameter.example);
    else headers[parameter.name] = parameter.example;
  }
  const search = query.toString().replace(/%2C/gi, ',');
  return { url: `${baseUrl}${path}${search ? `?${search}` : ''}`, headers };
}

/**
 * Gives the optional query parameters of each API's read-only operations the sandbox's values as
 * examples (in place), from mocks started here and closed again.
 * @param {ConsoleApi[]} consoleApis
 */
export async function withSandboxPlaceholders(consoleApis) {
  const served = await startMockServers({
    ports: Object.fromEntries(consoleApis.map((api) => [api.api, 0])),
    sandbox: { seed: 1 },
  });
  try {
    const token = (await issueDemoTokens(served.authority, served.oauth.scopes, demoMall)).access_token;
    const [demo] = demoCollectionClients;
    for (const api of consoleApis) {
      const mock = served.mocks.find((entry) => entry.api === api.api);
      if (!mock) throw new Error(`no ${api.api} mock`);
      const authorization =
        api.auth.kind === 'basic'
          ? `Basic ${btoa(`${demo.clientId}:${demo.clientSecret}`)}`
          : `Bearer ${token}`;
      /** @type {Map<ConsoleOperation, unknown>} */
      const answers = new Map();
      for (const operation of api.operations.filter((entry) => entry.method === 'get')) {
        const { url, headers } = requiredRequest(operation, mock.url);
        // Many reads in a row from one mall: its request limit is emptied first (the mock's control API).
        await fetch(`${mock.url}/__mock/malls/${demoMall}/rate-limits`, { method: 'DELETE' });
        const response = await fetch(url, { headers: { ...headers, Authorization: authorization } });
        if (response.status !== 200)
          throw new Error(
            `${api.api} ${operation.operationId}: the default sandbox answered ${response.status}`,
          );
        answers.set(operation, await response.json());
      }
      // A parameter takes the value its own operation answers, else the first any read answers (a
      // count answers no records: its filters take the list's).
      const everyAnswer = [...answers.values()];
      for (const operation of answers.keys()) {
        for (const parameter of operation.parameters) {
          if (parameter.required || parameter.in !== 'query') continue;
          const value =
            firstValueOf(answers.get(operation), parameter.name) ?? firstValueOf(everyAnswer, parameter.name);
          if (value !== undefined) parameter.example = String(value);
        }
      }
    }
  } finally {
    await served.close();
  }
  return consoleApis;
}
