// The control API over HTTP and through the test helper: the journal (filter, count, clear, verify
// with what was received instead, secrets redacted), fault rules (a status for the next N calls,
// Retry-After, delay, dropped connection, no answer), the per-mall clock (tokens and buckets follow
// it, other malls do not), rate-limit reset, per-mall base URLs, validated input that changes
// nothing, data changes that keep the API answering from the old records until they are swapped in
// (an API write during a fixture load refuses it with 409), and access: loopback only, control token.
import { loadSpec } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlError, type StartedMock, startMock } from '../qa/index.js';

let mock: StartedMock;
let mallCounter = 0;
const freshMall = () => `ctl${++mallCounter}`;
/** While set, the malls' base time stands still there (else it is the wall clock's). */
let heldAt: number | undefined;

beforeAll(async () => {
  mock = await startMock({
    apis: ['admin', 'analytics'],
    controlToken: 'qa-control-secret',
    clock: () => heldAt ?? Date.now(),
  });
});
afterAll(() => mock.close());

/** Calls the admin API at a mall with a token of that mall. */
async function adminCall(mallId: string, path: string, init: RequestInit = {}, token?: string) {
  const accessToken = token ?? (await mock.token(mallId)).access_token;
  return fetch(`${mock.mallUrl('admin', mallId)}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${accessToken}`, ...init.headers },
  });
}

describe('request journal', () => {
  it('records each request of a mall with its operation, query, status and redacted secrets', async () => {
    const mall = freshMall();
    await adminCall(mall, '/api/v2/admin/categories?limit=2');
    const entries = await mock.control.journal(mall);
    const token = entries.find((e) => e.path === '/api/v2/oauth/token');
    expect(JSON.stringify(token)).not.toMatch(/demo-app-secret|"code":"[^[]/);
    const list = entries.find((e) => e.operationId === 'listCategories');
    expect(list).toMatchObject({
      method: 'GET',
      status: 200,
      query: { limit: '2' },
      answeredBy: 'answer',
      api: 'admin',
    });
    expect(await mock.control.count(mall, { operationId: 'listCategories' })).toBe(1);
    expect(await mock.control.journal(freshMall())).toEqual([]);
  });

  it('verifies an expected call, and shows the closest requests received when it is missing', async () => {
    const mall = freshMall();
    await adminCall(mall, '/api/v2/admin/categories');
    await expect(
      mock.control.verify(mall, { operationId: 'listCategories', times: 1 }),
    ).resolves.toHaveLength(1);
    const failure = mock.control.verify(mall, { operationId: 'createCategory' });
    await expect(failure).rejects.toThrow(/found 0\. The closest of the 3 request\(s\) the mall received:\n/);
    await expect(failure).rejects.toThrow(
      /GET \/api\/v2\/admin\/categories → 200 \(listCategories\): operationId listCategories ≠ createCategory/,
    );
    await expect(mock.control.verify(mall, { operationId: 'createCategorie' })).rejects.toMatchObject({
      status: 422,
      violations: [{ name: 'operationId', message: 'createCategorie is not an operation of any API' }],
    });
  });

  it('clears a mall’s journal', async () => {
    const mall = freshMall();
    await adminCall(mall, '/api/v2/admin/categories');
    expect(await mock.control.clearJournal(mall)).toBeGreaterThan(0);
    expect(await mock.control.count(mall)).toBe(0);
  });
});

describe('faults', () => {
  it('answers a status for the next N matching calls, then normally', async () => {
    const mall = freshMall();
    const token = (await mock.token(mall)).access_token;
    await mock.control.addFault(mall, {
      match: { operationId: 'listCategories' },
      action: { kind: 'status', status: 503, retryAfterSeconds: 1 },
      times: 2,
    });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 3; i++) {
      const response = await adminCall(mall, '/api/v2/admin/categories', {}, token);
      statuses.push(response.status);
      retryAfter ??= response.headers.get('retry-after');
      if (response.status === 503) expect((await response.json()).error.code).toBe('service_unavailable');
    }
    expect(statuses).toEqual([503, 503, 200]);
    expect(retryAfter).toBe('1');
    expect(await mock.control.count(mall, { operationId: 'listCategories', status: 503 })).toBe(2);
  });

  it('delays, drops the connection, or never answers', async () => {
    const mall = freshMall();
    const token = (await mock.token(mall)).access_token;
    await mock.control.addFault(mall, {
      match: { method: 'GET', path: '/api/v2/admin/categories' },
      action: { kind: 'delay', minMs: 150 },
      times: 1,
    });
    const started = performance.now();
    expect((await adminCall(mall, '/api/v2/admin/categories', {}, token)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    await mock.control.addFault(mall, { action: { kind: 'drop' }, times: 1 });
    await expect(adminCall(mall, '/api/v2/admin/categories', {}, token)).rejects.toThrow();
    await mock.control.addFault(mall, { action: { kind: 'hang' }, times: 1 });
    await expect(
      adminCall(mall, '/api/v2/admin/categories', { signal: AbortSignal.timeout(300) }, token),
    ).rejects.toThrow(/abort|timeout/i);
    expect((await adminCall(mall, '/api/v2/admin/categories', {}, token)).status).toBe(200);
  });

  it('only touches its own mall, and reset clears it', async () => {
    const [faulty, calm] = [freshMall(), freshMall()];
    await mock.control.addFault(faulty, { action: { kind: 'status', status: 500 } });
    expect((await adminCall(calm, '/api/v2/admin/categories')).status).toBe(200);
    expect((await adminCall(faulty, '/api/v2/admin/categories')).status).toBe(500);
    expect(await mock.control.faults(faulty)).toHaveLength(1);
    await mock.control.reset(faulty);
    expect(await mock.control.faults(faulty)).toEqual([]);
    expect((await adminCall(faulty, '/api/v2/admin/categories')).status).toBe(200);
  });
});

describe('clock', () => {
  it('expires a mall’s access token after two hours of its own time, and no other mall’s', async () => {
    const [late, other] = [freshMall(), freshMall()];
    const lateToken = (await mock.token(late)).access_token;
    const otherToken = (await mock.token(other)).access_token;
    await mock.control.advanceClock(late, 2 * 3_600_000 + 1_000);
    const expired = await adminCall(late, '/api/v2/admin/categories', {}, lateToken);
    expect(expired.status).toBe(401);
    expect((await expired.json()).error.message).toMatch(/expired/);
    expect((await adminCall(other, '/api/v2/admin/categories', {}, otherToken)).status).toBe(200);
    expect((await mock.control.clock(late)).offsetMs).toBe(2 * 3_600_000 + 1_000);
  });

  it('expires an OAuth code after one minute of the mall’s time', async () => {
    const mall = freshMall();
    const base = mock.mallUrl('admin', mall);
    const redirect = await fetch(
      `${base}/api/v2/oauth/authorize?response_type=code&client_id=demo-app&state=s&redirect_uri=${encodeURIComponent(mock.credentials.oauthApp.redirectUri)}&scope=mall.read_category`,
      { redirect: 'manual' },
    );
    const code = new URL(redirect.headers.get('location') ?? '').searchParams.get('code') ?? '';
    await mock.control.advanceClock(mall, 61_000);
    const exchange = await fetch(`${base}/api/v2/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}` },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: mock.credentials.oauthApp.redirectUri,
      }),
    });
    expect(exchange.status).toBe(400);
    expect((await exchange.json()).error).toBe('invalid_grant');
  });

  it('drains a mall’s bucket as its clock moves, and a rate-limit reset empties it', async () => {
    const mall = freshMall();
    const token = (await mock.token(mall)).access_token;
    // Held still, so that only the mall's own clock drains the bucket: on the wall clock's, a burst
    // slowed by a loaded machine leaks calls as it goes and may never be refused.
    heldAt = Date.now();
    try {
      const burst = await Promise.all(
        Array.from({ length: 41 }, () => adminCall(mall, '/api/v2/admin/categories', {}, token)),
      );
      expect(burst.map((r) => r.status)).toContain(429);
      await mock.control.advanceClock(mall, 10_000);
      expect((await adminCall(mall, '/api/v2/admin/categories', {}, token)).status).toBe(200);
      await Promise.all(
        Array.from({ length: 41 }, () => adminCall(mall, '/api/v2/admin/categories', {}, token)),
      );
      await mock.control.resetRateLimits(mall);
      const fresh = await adminCall(mall, '/api/v2/admin/categories', {}, token);
      expect(fresh.headers.get('x-api-call-limit')).toBe('1/40');
    } finally {
      heldAt = undefined;
    }
  });
});

describe('mall data through the control API', () => {
  const categoryNames = async (mall: string) => {
    const response = await adminCall(mall, '/api/v2/admin/categories?limit=100');
    return ((await response.json()) as { categories: { category_name: string }[] }).categories.map(
      (c) => c.category_name,
    );
  };
  const create = (mall: string, name: string, token?: string) =>
    adminCall(
      mall,
      '/api/v2/admin/categories',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ shop_no: 1, request: { category_name: name } }),
      },
      token,
    );

  it('keeps eight parallel test runs apart', async () => {
    const malls = Array.from({ length: 8 }, () => freshMall());
    await Promise.all(malls.map((mall) => create(mall, `only in ${mall}`)));
    const seen = await Promise.all(malls.map((mall) => categoryNames(mall)));
    for (const [i, names] of seen.entries()) {
      expect(names.filter((name) => name.startsWith('only in '))).toEqual([`only in ${malls[i]}`]);
      expect(await mock.control.count(malls[i] as string, { operationId: 'createCategory' })).toBe(1);
    }
  });

  it('resets a mall to exactly its seed', async () => {
    const mall = freshMall();
    await categoryNames(mall);
    const seeded = await mock.control.snapshot(mall);
    await create(mall, 'to be forgotten');
    expect(await categoryNames(mall)).toContain('to be forgotten');
    await mock.control.reset(mall, 'seed');
    expect(await mock.control.snapshot(mall)).toEqual(seeded);
  });

  it('loads a fixture, refuses one with a bad record without loading anything, and restores a snapshot', async () => {
    const mall = freshMall();
    await mock.control.reset(mall, 'empty');
    const counts = await mock.control.loadFixture(mall, {
      categories: [{ $id: 'home', category_name: 'Fixture Home' }],
      products: [
        {
          product_name: 'Fixture Mug',
          supply_price: '4000.00',
          display: 'T',
          add_category_no: [{ category_no: { $ref: 'home' }, recommend: 'T' }],
        },
      ],
    });
    expect(counts).toMatchObject({ categories: expect.any(Number), products: 1 });
    const loaded = await mock.control.snapshot(mall);
    const refused = await mock.control
      .loadFixture(mall, { categories: [{ category_name: 'Fine' }, { category_name: 42 }] })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(ControlError);
    expect((refused as ControlError).status).toBe(422);
    expect(await mock.control.snapshot(mall)).toEqual(loaded);
    await create(mall, 'after the snapshot');
    await mock.control.restore(mall, loaded);
    expect(await categoryNames(mall)).not.toContain('after the snapshot');
    expect(await categoryNames(mall)).toContain('Fixture Home');
  });

  it('answers API calls from the old records while a large fixture loads', async () => {
    const mall = freshMall();
    await mock.control.reset(mall, 'empty');
    await create(mall, 'before the load');
    const categories = Array.from({ length: 20_000 }, (_, i) => ({ category_name: `Bulk ${i}` }));
    let settled = false;
    const loading = mock.control.loadFixture(mall, { categories }).finally(() => {
      settled = true;
    });
    // One token for every call: the token endpoint has a rate limit of its own. The calls come as
    // fast as they are answered, so when the mall's budget runs out (a 429) it is refilled through
    // the control API and the loop goes on.
    const authorization = `Bearer ${(await mock.token(mall)).access_token}`;
    const countsSeen: number[] = [];
    while (!settled) {
      const response = await fetch(`${mock.mallUrl('admin', mall)}/api/v2/admin/categories/count`, {
        headers: { authorization },
      });
      const body = (await response.json()) as { count: number };
      if (response.status === 429) await mock.control.resetRateLimits(mall);
      else {
        expect(response.status).toBe(200);
        countsSeen.push(body.count);
      }
    }
    expect(await loading).toMatchObject({ categories: 20_001 });
    // The old records until the new ones are in place whole (a call answered between the swap and
    // the load's own answer sees the new ones), never a part of them, never back.
    expect(countsSeen.length).toBeGreaterThan(1);
    expect(countsSeen[0]).toBe(1);
    expect(countsSeen.every((count) => count === 1 || count === 20_001)).toBe(true);
    expect(countsSeen).toEqual([...countsSeen].sort((a, b) => a - b));
  });

  it('refuses a fixture load met by an API write to the mall with a 409 envelope, loading nothing', async () => {
    const mall = freshMall();
    await mock.control.reset(mall, 'empty');
    const categories = Array.from({ length: 20_000 }, (_, i) => ({ category_name: `Bulk ${i}` }));
    let settled = false;
    const loading = mock.control.loadFixture(mall, { categories }).then(
      () => undefined,
      (error: unknown) => error,
    );
    void loading.finally(() => {
      settled = true;
    });
    // One token for every write (the token endpoint has a rate limit of its own); when the mall's
    // budget runs out (a 429, which writes nothing) it is refilled through the control API and the
    // same write is sent again.
    const token = (await mock.token(mall)).access_token;
    const written: string[] = [];
    while (!settled) {
      const name = `written ${written.length}`;
      const response = await create(mall, name, token);
      if (response.status === 429) await mock.control.resetRateLimits(mall);
      else {
        expect(response.status).toBe(201);
        written.push(name);
      }
    }
    const refused = await loading;
    expect(refused).toBeInstanceOf(ControlError);
    expect((refused as ControlError).status).toBe(409);
    expect((refused as ControlError).violations.map((v) => v.name)).toEqual(['mall']);
    // The writes may have spent the mall's budget: the read that checks them gets a fresh one.
    await mock.control.resetRateLimits(mall);
    expect(await categoryNames(mall)).toEqual(written.slice(0, 100));
  });

  it('refuses a snapshot whose record breaks its schema with a 422 naming it, changing nothing', async () => {
    const mall = freshMall();
    await create(mall, 'kept');
    type Tables = Record<string, [string, Record<string, unknown>][]>;
    const before = (await mock.control.snapshot(mall)) as { tables: Tables };
    const tables = structuredClone(before.tables);
    const category = tables.category?.find(([, record]) => record.category_name === 'kept');
    if (!category) throw new Error('the created category is in the snapshot');
    category[1].category_name = 42;
    const refused = await mock.control.restore(mall, { ...before, tables }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ControlError);
    expect((refused as ControlError).status).toBe(422);
    expect((refused as ControlError).violations.map((v) => v.name)).toEqual([
      `tables.category/${tables.category?.indexOf(category)}.category_name`,
    ]);
    expect(await mock.control.snapshot(mall)).toEqual(before);
  });
});

describe('malls by base URL', () => {
  it('refuses a token at a mall it was not issued for', async () => {
    const [mine, theirs] = [freshMall(), freshMall()];
    const token = (await mock.token(mine)).access_token;
    const response = await fetch(`${mock.mallUrl('admin', theirs)}/api/v2/admin/categories`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(401);
    expect((await response.json()).error.message).toBe('The access token was issued for another mall.');
  });
});

describe('control input and access', () => {
  it('refuses bad input with the envelope and changes nothing', async () => {
    const mall = freshMall();
    const refused = async (call: Promise<unknown>, status: number) => {
      const error = await call.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ControlError);
      expect((error as ControlError).status).toBe(status);
      return error as ControlError;
    };
    const bad = await refused(
      mock.control.addFault(mall, { action: { kind: 'status', status: 200 } } as never),
      422,
    );
    expect(bad.violations.length).toBeGreaterThan(0);
    await refused(mock.control.addFault(mall, { action: { kind: 'explode' } } as never), 422);
    await refused(mock.control.advanceClock(mall, -5), 422);
    await refused(mock.control.journal(mall, { status: 'x' as never }), 422);
    await refused(mock.control.reset('Not A Mall!'), 422);
    const farFuture = await refused(mock.control.setClock(mall, '+275760-09-13T00:00:00.000Z'), 422);
    expect(farFuture.violations.map((v) => v.name)).toEqual(['at']);
    const late = freshMall();
    await mock.control.setClock(late, '9999-12-30T00:00:00Z');
    const pastEnd = await refused(mock.control.advanceClock(late, 2 * 86_400_000), 422);
    expect(pastEnd.violations).toMatchObject([
      { name: 'advanceMs', message: expect.stringMatching(/outside 1970/) },
    ]);
    expect((await mock.control.clock(late)).now).toMatch(/^9999-12-30T/);
    const unknownOperation = await refused(
      mock.control.addFault(mall, {
        match: { api: 'admin', operationId: 'listWidgets' },
        action: { kind: 'drop' },
      }),
      422,
    );
    expect(unknownOperation.violations).toMatchObject([
      { name: 'match.operationId', message: 'listWidgets is not an operation of the admin API' },
    ]);
    const backwards = await refused(
      mock.control.addFault(mall, { action: { kind: 'delay', minMs: 500, maxMs: 100 } }),
      422,
    );
    expect(backwards.violations.map((v) => v.name)).toEqual(['action.maxMs']);
    const unknownKey = await refused(mock.control.reset(mall, { sed: 1 } as never), 422);
    expect(unknownKey.violations).toMatchObject([{ name: 'to.sed', message: 'is not a known key' }]);
    expect(await mock.control.faults(mall)).toEqual([]);
    expect((await mock.control.clock(mall)).offsetMs).toBe(0);
    const notJson = await fetch(`${mock.urls.admin}/__mock/malls/${mall}/faults`, {
      method: 'POST',
      headers: { 'x-mock-control-token': 'qa-control-secret', 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
    const unknown = await fetch(`${mock.urls.admin}/__mock/malls/${mall}/teleport`, {
      headers: { 'x-mock-control-token': 'qa-control-secret' },
    });
    expect(unknown.status).toBe(404);
  });

  it('serves its own OpenAPI document, the bundle it validates against', async () => {
    const response = await fetch(`${mock.urls.analytics}/__mock/openapi.json`, {
      headers: { 'x-mock-control-token': 'qa-control-secret' },
    });
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(document).toEqual((await loadSpec('control')).document);
    expect(Object.keys(document.paths)).toContain('/__mock/malls/{mall}/faults/{id}');
  });

  it('refuses an unknown journal filter instead of ignoring it', async () => {
    const response = await fetch(`${mock.urls.admin}/__mock/malls/ctl-filter/journal?opId=listCategories`, {
      headers: { 'x-mock-control-token': 'qa-control-secret' },
    });
    expect(response.status).toBe(422);
    expect((await response.json()).error.more_info.violations).toEqual([
      { location: 'query', name: 'opId', message: 'is not a known parameter' },
    ]);
  });

  it('needs the control token when one is set, on every mock port', async () => {
    for (const url of [mock.urls.admin, mock.urls.analytics]) {
      const response = await fetch(`${url}/__mock/malls`);
      expect(response.status).toBe(401);
      expect(JSON.stringify(await response.json())).not.toContain('qa-control-secret');
    }
    expect(Array.isArray(await mock.control.malls())).toBe(true);
  });
});
