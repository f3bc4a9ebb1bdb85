// Profiles and lost answers over real HTTP: a profile's delays reach the injected sleeper as the
// seed draws them (the same seed, the same delays, at any mall) and its errors are answered call
// by call as drawn; a lost answer commits the create, then drops the connection or answers 504, and
// the journal says so; a blind retry after it leaves a duplicate that `getDuplicates` and the
// duplicates form of `verify` count; and bad profiles are refused with one violation naming the
// field, changing nothing. No test waits for a delay: the sleeper records it and returns at once.
import { loadSpec } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delayBound } from '../control/control-rules.js';
import { issueDemoTokens } from '../oauth/demo-tokens.js';
import { ControlError, createControlClient } from '../qa/control-client.js';
import { startMockServers } from '../server/mock-server.js';
import { drawProfile, type ProfileAction } from './fault-profile.js';

const allScopes = ['mall.read_category', 'mall.write_category', 'mall.read_product', 'mall.write_product'];
const slept: number[] = [];
let served: Awaited<ReturnType<typeof startMockServers>>;
let base = '';
let control: ReturnType<typeof createControlClient>;
let mallCounter = 0;
const freshMall = () => `faults${++mallCounter}`;

beforeAll(async () => {
  served = await startMockServers({
    apis: ['admin'],
    ports: { admin: 0 },
    sandbox: { seed: 1 },
    faultSleep: async (ms) => void slept.push(ms),
  });
  base = served.mocks[0]?.url ?? '';
  control = createControlClient(base);
});
afterAll(() => served.close());

/** Calls the admin API at a mall with a token of that mall; resolves to the response or the connection's failure. */
async function adminCall(mallId: string, method: string, path: string, body?: unknown) {
  const { access_token } = await issueDemoTokens(served.authority, allScopes, mallId);
  return fetch(`${base}/__mall/${mallId}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${access_token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const createScarves = (mallId: string, name = 'Scarves') =>
  adminCall(mallId, 'POST', '/api/v2/admin/categories', { shop_no: 1, request: { category_name: name } });

/** The names of a mall's categories. */
async function categoryNames(mallId: string): Promise<string[]> {
  const listed = await adminCall(mallId, 'GET', '/api/v2/admin/categories?limit=100');
  return ((await listed.json()) as { categories: { category_name: string }[] }).categories.map(
    (category) => category.category_name,
  );
}

describe('profiles', () => {
  it('delays each call as its seed draws, the same at any mall, never holding the event loop', async () => {
    const action: ProfileAction = {
      kind: 'profile',
      latency: { distribution: 'log-normal', medianMs: 80, p99Ms: 900 },
      seed: 42,
    };
    const maxDelayMs = delayBound(await loadSpec('control'));
    const expected = [0, 1, 2, 3, 4].map((call) => drawProfile(action, call, maxDelayMs).delayMs);
    const runs: number[][] = [];
    for (const mall of [freshMall(), freshMall()]) {
      await control.addFault(mall, { match: { operationId: 'listCategories' }, action });
      slept.length = 0;
      for (let call = 0; call < 5; call += 1)
        expect((await adminCall(mall, 'GET', '/api/v2/admin/categories')).status).toBe(200);
      runs.push([...slept]);
    }
    expect(runs).toEqual([expected, expected]);
    expect(new Set(expected).size).toBeGreaterThan(1);
  });

  it('answers the errors its seed draws, call by call, and lets the others through', async () => {
    const mall = freshMall();
    const action: ProfileAction = { kind: 'profile', errors: [{ status: 503, rate: 0.3 }], seed: 7 };
    await control.addFault(mall, { match: { operationId: 'listCategories' }, action });
    const expected = Array.from({ length: 12 }, (_, call) =>
      drawProfile(action, call, 1).error ? 503 : 200,
    );
    const statuses = [];
    for (let call = 0; call < 12; call += 1)
      statuses.push((await adminCall(mall, 'GET', '/api/v2/admin/categories')).status);
    expect(statuses).toEqual(expected);
    expect(statuses).toContain(503);
    expect(await control.count(mall, { status: 503, operationId: 'listCategories' })).toBe(
      expected.filter((status) => status === 503).length,
    );
  });

  it('gets a seed when none is given, shown in the stored rule', async () => {
    const rule = await control.addFault(freshMall(), {
      action: { kind: 'profile', latency: { distribution: 'fixed', ms: 10 } },
    });
    expect(rule.action).toMatchObject({ kind: 'profile', seed: expect.any(Number) });
  });
});

describe('lost answers', () => {
  it('commits a create, then drops the connection; the journal keeps its 201 and how it was lost', async () => {
    const mall = freshMall();
    await control.addFault(mall, {
      match: { operationId: 'createCategory' },
      action: { kind: 'lost-answer', by: 'drop' },
      times: 1,
    });
    await expect(createScarves(mall)).rejects.toThrow();
    expect(await categoryNames(mall)).toContain('Scarves');
    const [entry] = await control.journal(mall, { operationId: 'createCategory' });
    expect(entry).toMatchObject({ status: 201, answeredBy: 'answer', lostAnswer: 'drop' });
  });

  it('commits a create, then answers 504 with the envelope', async () => {
    const mall = freshMall();
    await control.addFault(mall, {
      match: { operationId: 'createCategory' },
      action: { kind: 'lost-answer', by: 'gateway-timeout' },
      times: 1,
    });
    const response = await createScarves(mall);
    expect(response.status).toBe(504);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/lost/);
    expect(await categoryNames(mall)).toContain('Scarves');
    const entries = await control.journal(mall, { operationId: 'createCategory' });
    expect(entries.map((entry) => [entry.status, entry.lostAnswer])).toEqual([[201, 'gateway-timeout']]);
    expect((await createScarves(mall, 'Hats')).status).toBe(201);
    expect((await control.journal(mall, { operationId: 'createCategory' }))[1]?.lostAnswer).toBeUndefined();
  });

  it('leaves a duplicate when the app blindly sends the create again, which verify catches', async () => {
    const mall = freshMall();
    await control.addFault(mall, {
      match: { operationId: 'createCategory' },
      action: { kind: 'lost-answer' },
      times: 1,
    });
    // A blind retry: the first answer never came, so the app sends the same create again.
    const first = await createScarves(mall).catch(() => undefined);
    expect(first).toBeUndefined();
    expect((await createScarves(mall)).status).toBe(201);
    // Another name is another request, not a duplicate.
    expect((await createScarves(mall, 'Gloves')).status).toBe(201);
    expect(
      (await categoryNames(mall)).filter((name) => name === 'Scarves' || name === 'Gloves').sort(),
    ).toEqual(['Gloves', 'Scarves', 'Scarves']);
    const found = await control.duplicates(mall);
    expect(found).toMatchObject({
      duplicates: 1,
      groups: [{ operationId: 'createCategory', body: { request: { category_name: 'Scarves' } } }],
    });
    expect(found.groups[0]?.sequences).toHaveLength(2);
    await expect(control.verify(mall, { duplicates: 0 })).rejects.toThrow(
      /Expected 0 duplicate create\(s\) at mall faults\d+, found 1:\n {2}createCategory \/api\/v2\/admin\/categories created 2 times/,
    );
    await expect(
      control.verify(mall, { operationId: 'createCategory', duplicates: 1 }),
    ).resolves.toMatchObject({
      duplicates: 1,
    });
    // After the retry's entry, nothing is duplicated.
    const after = found.groups[0]?.sequences[1] ?? 0;
    await expect(control.verify(mall, { after, duplicates: 0 })).resolves.toMatchObject({ duplicates: 0 });
  });
});

describe('bad fault rules and duplicate filters', () => {
  const refusals: [string, unknown, string][] = [
    [
      'a p99 over the longest delay',
      { kind: 'profile', latency: { distribution: 'log-normal', medianMs: 80, p99Ms: 600_001 } },
      'action.latency/p99Ms',
    ],
    [
      'a median of 0',
      { kind: 'profile', latency: { distribution: 'log-normal', medianMs: 0, p99Ms: 10 } },
      'action.latency/medianMs',
    ],
    [
      'a key of another distribution',
      { kind: 'profile', latency: { distribution: 'fixed', ms: 5, medianMs: 3 } },
      'action.latency/medianMs',
    ],
    [
      'a p99 below the median',
      { kind: 'profile', latency: { distribution: 'log-normal', medianMs: 80, p99Ms: 40 } },
      'action.latency/p99Ms',
    ],
    [
      'a uniform range that runs backwards',
      { kind: 'profile', latency: { distribution: 'uniform', minMs: 80, maxMs: 40 } },
      'action.latency/maxMs',
    ],
    [
      'rates that add up to more than 1',
      {
        kind: 'profile',
        errors: [
          { status: 503, rate: 0.7 },
          { status: 500, rate: 0.4 },
        ],
      },
      'action.errors',
    ],
    ['a profile that draws nothing', { kind: 'profile', seed: 3 }, 'action'],
    ['an unknown way to lose an answer', { kind: 'lost-answer', by: 'timeout' }, 'action.by'],
    [
      'a seed out of range',
      { kind: 'profile', errors: [{ status: 503, rate: 0.1 }], seed: -1 },
      'action.seed',
    ],
  ];
  it.each(refusals)(
    'refuses %s with one violation naming it, and stores nothing',
    async (_, action, name) => {
      const mall = freshMall();
      const refused = await control
        .addFault(mall, { action: action as never })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ControlError);
      expect(refused).toMatchObject({ status: 422, violations: [{ name }] });
      expect(await control.faults(mall)).toEqual([]);
    },
  );

  it('refuses a duplicates filter naming no operation', async () => {
    const refused = await control
      .duplicates(freshMall(), { operationId: 'createCategorie' })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 422, violations: [{ name: 'operationId' }] });
  });
});
