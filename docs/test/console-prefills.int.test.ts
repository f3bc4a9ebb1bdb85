// Every Try-it pre-fill works against the default sandbox: for every operation of the three
// references (the console's data as the docs build writes it from the specs), the request the
// console builds from its pre-filled fields (required path, query and header parameters from the
// spec's examples, the body example), sent to the default sandbox mocks (seed 1, as `npm start`) with the
// demo credentials, gets one of the success statuses the spec documents for that operation. Each
// OAuth operation runs in a fresh mall of its own, as a reader's first try would; one that names the
// mall it reads (analytics' `mall_id`) runs with a token of that mall, the demo mall, its rate limit
// emptied before each call. And the placeholders of the optional fields of every read (the docs
// build takes them from the default sandbox) name records it has: each, sent with the pre-fill,
// answers 200, and where the answer carries that field, a record with that value.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type StartedMock, startMock } from '@mall-api/mock-server/testing';
import { type ApiName, apiNames, loadSpecSync, mallParameterOf, type SpecModel } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthEndpoints } from '../build/code-samples.mjs';
import { consoleApiOf } from '../build/console-data.mjs';
import type { ConsoleApi, ConsoleOperation } from '../src/browser/console-model.js';
import { buildRequest, inputProblems } from '../src/browser/console-request.js';

const models = new Map<ApiName, SpecModel>(apiNames.map((name) => [name, loadSpecSync(name)]));
const model = (name: ApiName) => models.get(name) ?? loadSpecSync(name);
const consoles = new Map<ApiName, ConsoleApi>(
  apiNames.map((name) => [name, consoleApiOf(name, name, model(name), [...models.values()])]),
);

/** The fields as the console fills them when it opens: required parameters, and the body example. */
const prefilled = (operation: ConsoleOperation) => ({
  values: Object.fromEntries(
    operation.parameters.filter((parameter) => parameter.required).map((p) => [p.name, p.example]),
  ),
  body: operation.body?.example ?? '',
});

/** The success statuses the spec documents for an operation. */
const documentedSuccesses = (api: ApiName, operationId: string): number[] => {
  const entry = model(api).operations.find((operation) => operation.operationId === operationId);
  const responses = model(api).resolveOptional(entry?.definition.responses) ?? {};
  return Object.keys(responses)
    .filter((status) => /^2\d\d$/.test(status))
    .map(Number);
};

// One mock for the file.
let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.close());

describe('the console’s pre-fills against the default sandbox', () => {
  it.each(apiNames)(
    'every %s operation, as pre-filled, gets a documented success',
    async (api) => {
      const consoleApi = consoles.get(api);
      const baseUrl = mock.urls[api];
      if (!consoleApi || !baseUrl) throw new Error(`no console or mock for ${api}`);
      // Every operation of the spec but the OAuth flow's own endpoints has a console.
      const flow = oauthEndpoints(model(api));
      expect(consoleApi.operations.map((operation) => operation.operationId)).toEqual(
        model(api)
          .operations.filter(
            (operation) =>
              operation.pathTemplate !== flow?.authorize && operation.pathTemplate !== flow?.token,
          )
          .map((operation) => operation.operationId),
      );
      const failures: string[] = [];
      for (const [index, operation] of consoleApi.operations.entries()) {
        const input = prefilled(operation);
        const problems = inputProblems(operation, input);
        if (problems.length > 0) {
          failures.push(
            `${operation.operationId}: the console refuses its own pre-fill (${JSON.stringify(problems)})`,
          );
          continue;
        }
        const entry = model(api).operations.find((o) => o.operationId === operation.operationId);
        const mallParameter = entry && mallParameterOf(entry);
        const namedMall = mallParameter && input.values[mallParameter];
        const tokenMall = typeof namedMall === 'string' ? namedMall : `prefill${api}${index}`;
        if (tokenMall === namedMall) await mock.control.resetRateLimits(tokenMall);
        const authorization =
          consoleApi.auth.kind === 'basic'
            ? `Basic ${btoa(`${consoleApi.auth.username}:${consoleApi.auth.password}`)}`
            : `Bearer ${(await mock.token(tokenMall)).access_token}`;
        const { url, init } = buildRequest(operation, input, baseUrl, authorization);
        const response = await fetch(url, init);
        const expected = documentedSuccesses(api, operation.operationId);
        if (!expected.includes(response.status)) {
          failures.push(
            `${operation.operationId}: ${init.method} ${url.slice(baseUrl.length)} → ${response.status} (documented ${expected.join(', ')}): ${(await response.text()).slice(0, 240)}`,
          );
        }
      }
      expect(failures).toEqual([]);
    },
    120_000,
  );
});

/** Every scalar under key `name` anywhere in `node`, as text. */
const valuesUnder = (node: unknown, name: string): string[] =>
  Array.isArray(node)
    ? node.flatMap((item) => valuesUnder(item, name))
    : node !== null && typeof node === 'object'
      ? Object.entries(node).flatMap(([key, value]) =>
          key === name && value !== null && typeof value !== 'object'
            ? [String(value)]
            : valuesUnder(value, name),
        )
      : [];

describe('the console’s placeholders against the default sandbox', () => {
  it.each(apiNames)(
    'every optional field of a %s read, filled with its placeholder, answers 200 with the record it names',
    async (api) => {
      // The console's data as the docs build wrote it, placeholders read from the default sandbox.
      const built = JSON.parse(
        await readFile(join(import.meta.dirname, '..', 'dist', api, 'console.json'), 'utf8'),
      ) as ConsoleApi;
      const baseUrl = mock.urls[api];
      if (!baseUrl) throw new Error(`no ${api} mock`);
      const failures: string[] = [];
      let tried = 0;
      const send = async (operation: ConsoleOperation, values: Record<string, string>) => {
        await mock.control.resetRateLimits('demomall');
        const authorization =
          built.auth.kind === 'basic'
            ? `Basic ${btoa(`${built.auth.username}:${built.auth.password}`)}`
            : `Bearer ${(await mock.token('demomall')).access_token}`;
        const { url, init } = buildRequest(operation, { values, body: '' }, baseUrl, authorization);
        const response = await fetch(url, init);
        return { status: response.status, body: (await response.json()) as unknown };
      };
      for (const operation of built.operations.filter((entry) => entry.method === 'get')) {
        const required = prefilled(operation).values;
        const unfiltered = await send(operation, required);
        for (const parameter of operation.parameters) {
          if (parameter.required || parameter.example === '') continue;
          tried += 1;
          const answer = await send(operation, { ...required, [parameter.name]: parameter.example });
          const named = valuesUnder(unfiltered.body, parameter.name).length > 0;
          if (answer.status !== 200)
            failures.push(
              `${operation.operationId} ${parameter.name}=${parameter.example}: ${answer.status}`,
            );
          else if (named && !valuesUnder(answer.body, parameter.name).includes(parameter.example))
            failures.push(
              `${operation.operationId} ${parameter.name}=${parameter.example}: no record with that ${parameter.name}`,
            );
        }
      }
      expect(tried).toBeGreaterThan(0);
      expect(failures).toEqual([]);
    },
    120_000,
  );
});
