// Bad input against the mocks in sandbox mode, generated, the wiring side: for every operation of
// the three APIs, requests built from the spec's own example request and then broken at random
// (path ids that do not exist or are not numbers, query values of the wrong type or out of range,
// body fields replaced by any JSON value, removed, or the body not an object at all), sent over
// HTTP. Whatever arrives, the answer is never a 5xx: a success, or the API's error envelope with a
// 4xx and no stack trace; and a write refused (by the front layer or the sandbox) leaves every
// table of the mall exactly as it was. What the sandbox itself does with odd input the front layer
// lets through is its own generated test (packages/sandbox/src/malls/odd-input.test.ts).

import { basicAuthorization } from '@mall-api/auth';
import type { MallSnapshot } from '@mall-api/sandbox';
import { loadSpec, mallParameterOf, type OperationEntry } from '@mall-api/spec-model';
import { oddRequest } from '@mall-api/test-support/odd-requests';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiName } from '../identity/api-profiles.js';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { startMockServers } from './mock-server.js';

const demoBasic = basicAuthorization('demo-partner', 'demo-partner-secret');

// biome-ignore lint/suspicious/noExplicitAny: error envelopes are read loosely
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
    // Each collection call names its own client through a trusted loopback proxy, so no window fills.
    trustProxy: ['loopback'],
  });
  // The mall exists before the first snapshot (an unknown mall has none).
  await served.malls.reset(mall);
});
afterAll(async () => {
  await served.close();
});

/** The mall's snapshot (every record of every table) as one string: equal strings mean nothing changed. */
const snapshot = async () => {
  if (!served.sandbox) throw new Error('no sandbox');
  return JSON.stringify(await served.sandbox.snapshot(mall));
};
/** The records of one table of the mall. */
const records = async <T>(table: 'category' | 'product') =>
  (((await served.sandbox?.snapshot(mall)) as MallSnapshot | undefined)?.tables[table] ?? []).map(
    ([, record]) => record as T,
  );

async function headersFor(api: ApiName): Promise<Record<string, string>> {
  requestCount++;
  if (api === 'collection')
    return {
      authorization: demoBasic,
      'x-forwarded-for': `robustness-${requestCount}`,
    };
  served.malls.resetLimits(mall);
  return { authorization: `Bearer ${(await issueDemoTokens(served.authority, scopes, mall)).access_token}` };
}

const isOAuth = (operation: OperationEntry) => operation.pathTemplate.startsWith('/api/v2/oauth/');

describe.each<[ApiName, number]>([
  ['admin', 400],
  ['collection', 100],
  ['analytics', 150],
])('the %s mock in sandbox mode under bad input', (api, runs) => {
  it(`never answers 5xx or changes data on a refused write (${runs} generated requests)`, async () => {
    const spec = await loadSpec(api);
    const operations = spec.operations.filter((operation) => !isOAuth(operation));
    const base = served.mocks.find((mock) => mock.api === api)?.url ?? '';
    const known = async () =>
      [
        ...(await records<{ category_no?: number }>('category')).map((c) => c.category_no),
        ...(await records<{ record?: { product_no?: number } }>('product')).map((p) => p.record?.product_no),
      ].filter((n): n is number => typeof n === 'number');
    const statuses = new Map<number, number>();

    await fc.assert(
      fc.asyncProperty(oddRequest(spec, operations, await known()), async (request) => {
        const { operation, body } = request;
        const path = operation.pathTemplate.replace(
          /\{([^}]+)\}/g,
          (_, name: string) => request.path[name] ?? '1',
        );
        const query = new URLSearchParams(request.query);
        // A mall parameter that names some mall names the caller's own, the one its token reads.
        const mallParameter = mallParameterOf(operation);
        if (mallParameter && query.get(mallParameter)) query.set(mallParameter, mall);
        const write = operation.method !== 'get';
        const before = write ? await snapshot() : '';
        const response = await fetch(`${base}${path}${query.size > 0 ? `?${query}` : ''}`, {
          method: operation.method.toUpperCase(),
          headers: {
            ...(await headersFor(api)),
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
          if (write) expect(await snapshot(), context).toBe(before);
        }
      }),
      { numRuns: runs },
    );
    // The generator reaches both sides: refusals and accepted requests.
    const accepted = [...statuses].filter(([status]) => status < 300).reduce((n, [, c]) => n + c, 0);
    expect(accepted).toBeGreaterThan(0);
    expect([...statuses.keys()].some((status) => status === 404 || status === 422)).toBe(true);
  }, 120_000);
});
