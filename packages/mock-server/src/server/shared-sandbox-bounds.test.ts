// A shared sandbox stays bounded, over HTTP: refused requests create no mall, an unknown mall has
// no snapshot (404 envelope), the least recently used mall goes past the cap (data and journal),
// named fixtures given to startMock load on reset, and each test run's per-mall base URL has its
// own collection rate-limit bucket that resetRateLimits empties. The wiring around the sandbox (the
// mock's mall roster, control API, journal and buckets); the sandbox's own snapshot, drop and
// fixture rules are tested in packages/sandbox (malls/sandbox-malls.test.ts, malls/fixtures.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedMock, startMock } from '../qa/index.js';

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock({
    mallLimits: { maxMalls: 3 },
    fixtures: { 'two-categories': { categories: [{ category_name: 'One' }, { category_name: 'Two' }] } },
  });
});
afterAll(() => mock.close());

const control = (path: string) => fetch(`${mock.urls.admin}/__mock/${path}`);
const mallsInUse = async () => ((await (await control('malls')).json()) as { malls: string[] }).malls;
const basic = () =>
  `Basic ${Buffer.from(`${mock.credentials.collection.clientId}:${mock.credentials.collection.clientSecret}`).toString('base64')}`;

describe('a shared sandbox', () => {
  it('creates no mall for refused requests, and has no snapshot of an unknown mall', async () => {
    const before = await mallsInUse();
    for (let i = 0; i < 20; i += 1) {
      const refused = await fetch(`${mock.mallUrl('admin', `nobody-${i}`)}/api/v2/admin/categories`, {
        headers: { authorization: 'Bearer not-a-token' },
      });
      expect(refused.status).toBe(401);
    }
    expect(await mallsInUse()).toEqual(before);
    const narrow = (await mock.token('scoped', ['mall.read_category'])).access_token;
    const forbidden = await fetch(`${mock.mallUrl('admin', 'scoped')}/api/v2/admin/products`, {
      headers: { authorization: `Bearer ${narrow}` },
    });
    expect(forbidden.status).toBe(403);
    expect(await mallsInUse()).toEqual(before);
    const snapshot = await control('malls/nobody-1/snapshot');
    expect(snapshot.status).toBe(404);
    expect(await snapshot.json()).toMatchObject({
      error: { code: expect.any(String), message: expect.stringContaining('nobody-1') },
    });
    expect(await mallsInUse()).toEqual(before);
  });

  it('drops the least recently used mall past the cap, with its data and journal', async () => {
    for (const mallId of ['cap-a', 'cap-b', 'cap-c']) await mock.control.reset(mallId, 'empty');
    const token = (await mock.token('cap-a')).access_token;
    const listed = await fetch(`${mock.mallUrl('admin', 'cap-a')}/api/v2/admin/categories`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(listed.status).toBe(200);
    await mock.control.reset('cap-d', { fixture: 'two-categories' });
    expect(await mallsInUse()).toEqual(['cap-a', 'cap-c', 'cap-d']);
    expect((await control('malls/cap-b/snapshot')).status).toBe(404);
    expect(await mock.control.journal('cap-b')).toEqual([]);
    const loaded = (await (await control('malls/cap-d/snapshot')).json()) as {
      tables: { category: unknown[] };
    };
    expect(loaded.tables.category).toHaveLength(2);
  });

  it('gives each run’s per-mall base URL its own collection bucket, which resetRateLimits empties', async () => {
    const remaining = async (mallId: string) => {
      const response = await fetch(
        `${mock.mallUrl('collection', mallId)}/api/products/count?collection_product_category=C100000`,
        {
          headers: { authorization: basic() },
        },
      );
      expect(response.status).toBe(200);
      return response.headers.get('x-ratelimit-remaining');
    };
    const fresh = await remaining('run-one');
    const second = await remaining('run-one');
    expect(Number(second)).toBeLessThan(Number(fresh));
    expect(await remaining('run-two')).toBe(fresh);
    await mock.control.resetRateLimits('run-one');
    expect(await remaining('run-one')).toBe(fresh);
  });
});
