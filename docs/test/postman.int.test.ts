// The Postman collections of docs/dist run: newman runs every request of each collection with its
// local-sandbox environment against the real sandbox mocks (on free ports, so only the ports in
// the environment change) and every request gets one of its operation's documented success
// statuses, which the collection's own tests assert (status and the documented body schema), so the
// same run with a wrong client secret fails. A collection's wait for Retry-After after a 429 moves
// the mall's clock instead of the wall clock's (newman-mall-clock.ts). Redirects are not followed, as the authorize step's
// 302 is the answer to read.
import { readFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { type StartedMock, startMock } from '@mall-api/mock-server/testing';
import { type ApiName, apiNames, loadSpecSync } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOnMallClock } from './newman-mall-clock.js';

const postmanDir = join(import.meta.dirname, '..', 'dist', 'postman');
const apis = apiNames;

/** Reads a JSON file of docs/dist/postman. */
const readJson = async (file: string) => JSON.parse(await readFile(join(postmanDir, file), 'utf8'));

/**
 * Runs `collection` with `environment` in newman, redirects off and without reusing connections
 * (a kept-alive socket the server is closing just then is a known race of newman's default agent
 * that loses the next request with no answer). After a 429 the collection waits out Retry-After:
 * here that wait moves the clock of the environment's mall (the sandbox's demo mall, which also
 * counts the calls of a caller without a mall) instead of passing on the wall clock.
 */
const run = (collection: unknown, environment: { values: { key: string; value: string }[] }) => {
  const mallId = environment.values.find((value) => value.key === 'mallId')?.value ?? demoMall;
  return runOnMallClock(
    {
      collection: collection as never,
      environment: environment as never,
      ignoreRedirects: true,
      reporters: [],
      requestAgents: { http: new Agent({ keepAlive: false }) },
    },
    (ms) => mock.control.advanceClock(mallId, ms),
  );
};

/** The operation that `method path` calls (a concrete path, or a Postman template with `:name`). */
function operationOf(api: ApiName, method: string, path: string) {
  const template = path.replace(/:([A-Za-z_]+)/g, '{$1}');
  const operation = loadSpecSync(api).operations.find(
    (entry) =>
      entry.method.toUpperCase() === method.toUpperCase() &&
      (entry.pathTemplate === template || entry.matchPath(path)),
  );
  if (!operation) throw new Error(`${api}: no operation for ${method} ${path}`);
  return operation;
}

/** The path of a Postman URL's segments. */
const pathOf = (segments: readonly string[] | undefined = []) => `/${segments.filter(Boolean).join('/')}`;

let mock: StartedMock;
/** The mall the admin environment names: the sandbox's demo mall. */
let demoMall: string;

describe('the Postman collections under newman', () => {
  beforeAll(async () => {
    mock = await startMock();
    demoMall = (await readJson('admin.local-sandbox.postman_environment.json')).values.find(
      (value: { key: string }) => value.key === 'mallId',
    ).value;
  });
  afterAll(async () => {
    await mock?.close();
  });

  /** The local-sandbox environment of `api`, its mock URLs moved to the ports the mocks listen on. */
  async function localEnvironment(api: ApiName) {
    const environment = await readJson(`${api}.local-sandbox.postman_environment.json`);
    const local = new Map<string, string>();
    for (const name of apis) {
      const url = mock.urls[name];
      const documented = (await readJson(`${name}.local-sandbox.postman_environment.json`)).values.find(
        (value: { key: string }) => value.key === 'baseUrl',
      ).value;
      if (url) local.set(documented, url);
    }
    for (const value of environment.values as { value: string }[]) {
      for (const [documented, url] of local) value.value = value.value.replace(documented, url);
    }
    return environment;
  }

  it.each(apis)(
    'run every request of the %s collection with a documented success',
    { timeout: 120_000 },
    async (api) => {
      const collection = await readJson(`${api}.postman_collection.json`);
      const summary = await run(collection, await localEnvironment(api));
      // A request answered 429 is sent again after Retry-After (the collection's test script), and a
      // lookup script may read the same route first: every answer of an item's own operation is a
      // documented success or a 429, and the last one a success.
      const answers = new Map<
        string,
        { request: string; statuses: number[]; expected: number[]; errors: string[] }
      >();
      for (const execution of summary.run.executions) {
        const { method, url } = execution.request;
        const operation = operationOf(api, method, pathOf(url.path));
        const own = operationOf(api, execution.item.request.method, pathOf(execution.item.request.url.path));
        // Requests sent by the collection's scripts (the token, a lookup) are not the item's own.
        if (operation !== own) continue;
        const entry = answers.get(execution.item.id) ?? {
          request: `${method} ${pathOf(url.path)}`,
          statuses: [],
          expected: operation.responseCodes.filter((code) => /^[23]\d\d$/.test(code)).map(Number),
          errors: [],
        };
        // A request that got no answer (status 0) says why, so a failure names the transport error.
        const requestError = (execution as { requestError?: Error }).requestError;
        if (requestError) entry.errors.push(requestError.message);
        entry.statuses.push(execution.response?.code ?? 0);
        answers.set(execution.item.id, entry);
      }
      const failed = [...answers.values()].filter(({ statuses, expected }) => {
        const last = statuses.at(-1) ?? 0;
        return (
          !expected.includes(last) || statuses.some((status) => status !== 429 && !expected.includes(status))
        );
      });
      expect(failed).toEqual([]);
      expect(answers.size).toBe(loadSpecSync(api).operations.length);
      expect(summary.run.failures).toEqual([]);
    },
  );

  it.each(['collection', 'admin'] as const)(
    'fail the %s collection when its client secret is wrong: each request asserts its status',
    // The admin run meets the leaky bucket and waits out each Retry-After, on the mall's clock.
    { timeout: 300_000 },
    async (api) => {
      const collection = await readJson(`${api}.postman_collection.json`);
      const environment = await localEnvironment(api);
      for (const value of environment.values as { key: string; value: string }[])
        if (value.key === 'clientSecret') value.value = 'a-wrong-secret';
      const summary = await run(collection, environment);
      const failures = summary.run.failures.map((failure) => String(failure.error.message));
      expect(failures.length).toBeGreaterThanOrEqual(loadSpecSync(api).operations.length - 2);
      expect(failures.filter((message) => /expected 401 to be one of/.test(message)).length).toBeGreaterThan(
        failures.length / 2,
      );
    },
  );
});
