// Every Try-it pre-fill works against the default sandbox: for every operation of the three
// references (the console's data as the docs build writes it from the specs), the request the
// console builds from its pre-filled fields (required path, query and header parameters from the
// spec's examples, the body example), sent to the default sandbox mocks (seed 1, as `npm start`) with the
// demo credentials, gets one of the success statuses the spec documents for that operation. Each
// OAuth operation runs in a fresh mall of its own, as a reader's first try would; one that names the
// mall it reads (analytics' `mall_id`) runs with a token of that mall, the demo mall, its rate limit
// emptied before each call.
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

describe('the console’s pre-fills against the default sandbox', () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock?.close());

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
