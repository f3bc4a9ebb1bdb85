// Two mock replicas on one real Redis act as one mock: a token issued by one works at the other,
// an authorization code and a refresh token are redeemed once across both, the admin API's leaky
// bucket admits exactly its capacity over both, the journal of a mall lists the calls of both in
// order, a "next 2 calls" fault fires twice in total, a clock moved on one is the clock of the
// other (a token expires there; a collection call there is dated by it), and a reset on one is
// what the other sees. Every mall here is its own, on a frozen clock
// so the bucket does not drain during the burst.

import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedMock, startMock } from '../qa/start-mock.js';

const frozen = Date.parse('2026-11-24T03:00:00.000Z');
let redis: TestRedisServer;
let a: StartedMock;
let b: StartedMock;

beforeAll(async () => {
  redis = await startRedisServer();
  [a, b] = (await Promise.all(
    [0, 1].map(() => startMock({ apis: ['admin', 'collection'], redis: redis.url, clock: () => frozen })),
  )) as [StartedMock, StartedMock];
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await redis?.stop();
});

const categories = (replica: StartedMock, mallId: string, token: string, query = '') =>
  fetch(`${replica.mallUrl('admin', mallId)}/api/v2/admin/categories${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });

const basicApp = () =>
  `Basic ${Buffer.from(`${a.credentials.oauthApp.clientId}:${a.credentials.oauthApp.clientSecret}`).toString('base64')}`;

const tokenCall = (replica: StartedMock, mallId: string, form: Record<string, string>) =>
  fetch(`${replica.mallUrl('admin', mallId)}/api/v2/oauth/token`, {
    method: 'POST',
    headers: { authorization: basicApp(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });

describe('two replicas on one Redis', () => {
  it('accept at one the access token the other issued', async () => {
    const { access_token } = await a.token('tokenmall');
    expect((await categories(b, 'tokenmall', access_token)).status).toBe(200);
  });

  it('redeem an authorization code once across both', async () => {
    const redirectUri = a.credentials.oauthApp.redirectUri;
    const authorize = new URL(`${a.mallUrl('admin', 'codemall')}/api/v2/oauth/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: a.credentials.oauthApp.clientId,
      redirect_uri: redirectUri,
      scope: 'mall.read_category',
      state: 's',
    }).toString();
    const redirect = await fetch(authorize, { redirect: 'manual' });
    const code = new URL(redirect.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri };
    const answers = await Promise.all([tokenCall(a, 'codemall', form), tokenCall(b, 'codemall', form)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
  });

  it('refuse at one a refresh token rotated at the other', async () => {
    const { refresh_token } = await a.token('refreshmall');
    const form = { grant_type: 'refresh_token', refresh_token };
    expect((await tokenCall(a, 'refreshmall', form)).status).toBe(200);
    const again = await tokenCall(b, 'refreshmall', form);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('admit exactly the leaky bucket’s capacity of a burst spread over both', async () => {
    const { access_token } = await a.token('burstmall');
    await a.control.resetRateLimits('burstmall');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => categories(i % 2 === 0 ? a : b, 'burstmall', access_token)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(40);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const used = answers.map((answer) => answer.headers.get('x-api-call-limit'));
    expect(used).toContain('40/40');
    expect(used).not.toContain('41/40');
  });

  it('journal the calls of both, in order, at one mall', async () => {
    const { access_token } = await a.token('journalmall');
    await b.control.clearJournal('journalmall');
    for (const [replica, limit] of [
      [a, 1],
      [b, 2],
      [a, 3],
    ] as const)
      expect((await categories(replica, 'journalmall', access_token, `?limit=${limit}`)).status).toBe(200);
    const entries = await b.control.journal('journalmall', { operationId: 'listCategories' });
    expect(entries.map((entry) => entry.query)).toEqual([{ limit: '1' }, { limit: '2' }, { limit: '3' }]);
    expect(entries.map((entry) => entry.sequence)).toEqual(
      [...entries.map((entry) => entry.sequence)].sort((x, y) => x - y),
    );
  });

  it('fire a "next 2 calls" fault twice in total', async () => {
    const { access_token } = await a.token('faultmall');
    await a.control.addFault('faultmall', {
      match: { operationId: 'listCategories' },
      action: { kind: 'status', status: 503 },
      times: 2,
    });
    const statuses: number[] = [];
    for (const replica of [a, b, a, b])
      statuses.push((await categories(replica, 'faultmall', access_token)).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
    expect(await b.control.faults('faultmall')).toEqual([]);
  });

  it('move the clock of both when one moves it: a token expires at the other', async () => {
    const { access_token } = await a.token('clockmall');
    expect((await categories(b, 'clockmall', access_token)).status).toBe(200);
    await a.control.advanceClock('clockmall', 2 * 60 * 60 * 1000 + 1000);
    const expired = await categories(b, 'clockmall', access_token);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ error: { message: expect.stringMatching(/expired/) } });
    expect((await b.control.clock('clockmall')).offsetMs).toBe(2 * 60 * 60 * 1000 + 1000);
  });

  it('date at one the calls after the other moved the clock (what the sandbox’s clock reads too)', async () => {
    const { clientId, clientSecret } = a.credentials.collection;
    const products = () =>
      fetch(`${b.mallUrl('collection', 'datemall')}/api/products?collection_product_category=C100000`, {
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
      });
    expect((await products()).status).toBe(200);
    await a.control.advanceClock('datemall', 86_400_000);
    expect((await products()).status).toBe(200);
    const entries = await a.control.journal('datemall', { api: 'collection' });
    expect(entries.map((entry) => entry.receivedAt)).toEqual([
      new Date(frozen).toISOString(),
      new Date(frozen + 86_400_000).toISOString(),
    ]);
  });

  it('see at one a reset the other made: journal, faults, buckets and clock', async () => {
    const { access_token } = await a.token('resetmall');
    await categories(a, 'resetmall', access_token);
    await a.control.addFault('resetmall', { match: { method: 'DELETE' }, action: { kind: 'drop' } });
    await a.control.advanceClock('resetmall', 60_000);
    await b.control.reset('resetmall');
    expect(await a.control.count('resetmall')).toBe(0);
    expect(await a.control.faults('resetmall')).toEqual([]);
    expect((await a.control.clock('resetmall')).offsetMs).toBe(0);
    const after = await categories(a, 'resetmall', access_token);
    expect(after.headers.get('x-api-call-limit')).toBe('1/40');
  });
});
