// Bad input against the mocks in sandbox mode, generated, the wiring side: for every operation of
// the three APIs, requests built from the spec's own example request and then broken at random
// (path ids that do not exist or are not numbers, query values of the wrong type or out of range,
// body fields replaced by any JSON value, removed, or the body not an object at all), sent over
// HTTP. Whatever arrives, the answer is never a 5xx: a success, or the API's error envelope with a
// 4xx and no stack trace; and a write refused (by the front layer or the sandbox) leaves every
// table of the mall exactly as it was. What the sandbox itself does with odd input the front layer
// lets through is its own generated test (packages/sandbox/src/malls/odd-input.test.ts).

import { basicAuthorization } from '@mall-api/auth';
import { indexOperations, loadSpec, type OperationEntry, resolve } from '@mall-api/spec-model';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiName } from './api-profiles.js';
import { startMockServers } from './mock-server.js';
import { issueDemoTokens } from './oauth/demo-tokens.js';

const demoBasic = basicAuthorization('demo-partner', 'demo-partner-secret');

// biome-ignore lint/suspicious/noExplicitAny: example documents are read loosely
type Loose = Record<string, any>;

/** The one mall every admin and analytics request goes to (its rate limit is lifted before each). */
const mall = 'robustmall';
const scopes = [
  'mall.read_category',
  'mall.write_category',
  'mall.read_product',
  'mall.write_product',
  'mall.read_analytics',
];

let served: Awaited<ReturnType<typeof startMockServers>>;
let requestCount = 0;

beforeAll(async () => {
  served = await startMockServers({
    ports: { collection: 0, admin: 0, analytics: 0 },
    sandbox: { seed: 4 },
  });
  // The mall exists before the first snapshot (an unknown mall has none).
  await served.malls.reset(mall);
});
afterAll(async () => {
  await served.close();
});

/** The mall's snapshot (every record of every table) as one string: equal strings mean nothing changed. */
const snapshot = () => {
  if (!served.sandbox) throw new Error('no sandbox');
  return JSON.stringify(served.sandbox.snapshot(mall));
};
/** The records of one table of the mall. */
const records = <T>(table: 'category' | 'product') =>
  (served.sandbox?.snapshot(mall).tables[table] ?? []).map(([, record]) => record as T);

/** The first example of an operation's JSON request body, if it documents one. */
function exampleBody(document: Loose, operation: OperationEntry): unknown {
  const raw = document.paths[operation.pathTemplate][operation.method];
  if (!raw.requestBody) return undefined;
  const content = resolve(document, raw.requestBody).content?.['application/json'] as Loose | undefined;
  const first = Object.values(content?.examples ?? {})[0];
  return first === undefined ? undefined : structuredClone(resolve(document, first).value);
}

/** A value a parameter of this schema accepts (its first enum value, its minimum, a date, …). */
function plausible(schema: Loose): string {
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.type === 'array') return plausible(schema.items ?? {});
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.format === 'date') return '2026-11-01';
  return 'sandbox';
}

/** Values that break parameters: wrong types, out of range, empty, huge, odd characters. */
const badValue = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '-1',
    '2147483648',
    '99999999999999999999',
    'abc',
    'T',
    'X',
    '1,2,,3',
    '%00',
    '🙂',
  ),
  fc.integer().map(String),
  fc.string({ maxLength: 12 }),
);

/** A path id: a number the sandbox issued, one it never did, or no number at all. */
const pathId = (known: number[]) =>
  fc.oneof(
    fc.constantFrom(...(known.length > 0 ? known : [1])).map(String),
    fc.constantFrom('2147483647', '0', '-5', 'abc', '1.5', '1e3'),
  );

/** A change to a JSON body: a field replaced by any JSON value or removed, or the body replaced. */
const bodyMutation = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), index: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ kind: fc.constant('remove' as const), index: fc.nat() }),
  fc.record({
    kind: fc.constant('replace' as const),
    value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ request: [] }), fc.constant([])),
  }),
);
type BodyMutation = typeof bodyMutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(body: unknown, mutation: BodyMutation): unknown {
  if (mutation.kind === 'replace') return mutation.value;
  const copy = structuredClone(body) as Loose;
  const target = copy && typeof copy.request === 'object' && copy.request !== null ? copy.request : copy;
  if (!target || typeof target !== 'object') return copy;
  const keys = Object.keys(target);
  if (keys.length === 0) return copy;
  const key = keys[mutation.index % keys.length] as string;
  if (mutation.kind === 'remove') delete target[key];
  else target[key] = mutation.value;
  return copy;
}

function headersFor(api: ApiName): Record<string, string> {
  requestCount++;
  if (api === 'collection')
    return {
      authorization: demoBasic,
      'x-forwarded-for': `robustness-${requestCount}`,
    };
  served.malls.resetLimits(mall);
  return { authorization: `Bearer ${issueDemoTokens(served.authority, scopes, mall).access_token}` };
}

const isOAuth = (operation: OperationEntry) => operation.pathTemplate.startsWith('/api/v2/oauth/');

describe.each<[ApiName, number]>([
  ['admin', 400],
  ['collection', 100],
  ['analytics', 150],
])('the %s mock in sandbox mode under bad input', (api, runs) => {
  it(`never answers 5xx or changes data on a refused write (${runs} generated requests)`, async () => {
    const { document } = await loadSpec(api);
    const byId = new Map(
      indexOperations(document)
        .filter((operation) => !isOAuth(operation))
        .map((operation) => [operation.operationId, operation]),
    );
    const base = served.mocks.find((mock) => mock.api === api)?.url ?? '';
    const known = () =>
      [
        ...records<{ category_no?: number }>('category').map((c) => c.category_no),
        ...records<{ record?: { product_no?: number } }>('product').map((p) => p.record?.product_no),
      ].filter((n): n is number => typeof n === 'number');
    const statuses = new Map<number, number>();

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...byId.keys()),
        fc.array(fc.tuple(fc.nat(), badValue), { maxLength: 3 }),
        fc.array(pathId(known()), { minLength: 3, maxLength: 3 }),
        fc.array(bodyMutation, { maxLength: 2 }),
        fc.boolean(),
        async (operationId, queryChanges, ids, mutations, keepRequiredQuery) => {
          const operation = byId.get(operationId) as OperationEntry;
          let idIndex = 0;
          const path = operation.pathTemplate.replace(/\{[^}]+\}/g, () => ids[idIndex++] ?? '1');
          const query = new URLSearchParams();
          const queryParameters = operation.parameters.filter((p) => p.in === 'query');
          if (keepRequiredQuery)
            for (const parameter of queryParameters)
              if (parameter.required) query.set(parameter.name, plausible(parameter.schema));
          for (const [index, value] of queryChanges) {
            const parameter = queryParameters[index % Math.max(queryParameters.length, 1)];
            if (parameter) query.set(parameter.name, value);
          }
          const write = operation.method !== 'get';
          let body = exampleBody(document, operation);
          if (write) for (const mutation of mutations) body = mutate(body, mutation);
          const before = write ? snapshot() : '';
          const response = await fetch(`${base}${path}${query.size > 0 ? `?${query}` : ''}`, {
            method: operation.method.toUpperCase(),
            headers: {
              ...headersFor(api),
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          const text = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const context = `${operation.method} ${path}?${query} ${JSON.stringify(body)?.slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`;
          expect(response.status, context).toBeLessThan(500);
          if (response.status >= 400) {
            const envelope = JSON.parse(text) as Loose;
            expect(typeof envelope.error?.code, context).toBe('string');
            expect(typeof envelope.error?.message, context).toBe('string');
            expect(envelope.error, context).toHaveProperty('more_info');
            expect(text, context).not.toMatch(/\n\s+at |node:internal|\.js:\d+:\d+/);
            if (write) expect(snapshot(), context).toBe(before);
          }
        },
      ),
      { numRuns: runs },
    );
    // The generator reaches both sides: refusals and accepted requests.
    const accepted = [...statuses].filter(([status]) => status < 300).reduce((n, [, c]) => n + c, 0);
    expect(accepted).toBeGreaterThan(0);
    expect([...statuses.keys()].some((status) => status === 404 || status === 422)).toBe(true);
  }, 120_000);
});
