// Three `mall-api-mock` processes on one real PostgreSQL and one real Redis act as one mock: a QA
// flow spreads its calls round-robin over them. A token issued by one works at the others, an
// authorization code is redeemed once, a write on one is read on the others (admin and collection
// reads), a rotated refresh token is refused everywhere, the admin leaky bucket admits its burst
// (the spec's capacity) over all three, the journal lists every call whatever replica took it, a
// "next N calls" fault fires N times in total, and a reset on one is seen by all.
import { ReauthorizationRequiredError } from '@mall-api/auth';
import { loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { createControlClient } from '../qa/control-client.js';
import { demoToken } from '../testing/cli-process.js';
import { oauthAppDriver } from '../testing/oauth-app.js';
import { collectionAuthorization, type Replica, useReplicaSet } from '../testing/replica-set.js';

const stores = useReplicaSet(3);
const { replicas } = stores;

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here
type Body = Record<string, any>;

/** The replica the i-th call goes to: round-robin over the three. */
const at = (i: number): Replica => replicas[i % replicas.length] as Replica;
const control = (i: number) => createControlClient(at(i).url('admin'));
const scopes = 'mall.read_category,mall.write_category,mall.read_product,mall.write_product';

const admin = async (i: number, mallId: string, token: string, path: string, body?: unknown) => {
  const response = await fetch(`${at(i).mall('admin', mallId)}/api/v2/admin/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify({ request: body }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
};

const collection = async (i: number, mallId: string, path: string) => {
  const response = await fetch(`${at(i).mall('collection', mallId)}/api/${path}`, {
    headers: { authorization: collectionAuthorization },
  });
  return { status: response.status, body: (await response.json()) as Body };
};

describe('three replicas on one PostgreSQL and one Redis', { timeout: 60_000 }, () => {
  it('accept at every replica the token one issued, and redeem a code once across all', async () => {
    const token = await demoToken(at(0).mall('admin', 'tokens'), scopes);
    for (const i of [1, 2, 0]) expect((await admin(i, 'tokens', token, 'categories')).status).toBe(200);

    const code = await oauthAppDriver(at(0).url('admin')).authorizeCode();
    const answers = await Promise.allSettled(
      replicas.map((_, i) => oauthAppDriver(at(i).url('admin')).exchange(code)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected', 'rejected']);
    for (const answer of answers)
      if (answer.status === 'rejected') expect(answer.reason).toBeInstanceOf(ReauthorizationRequiredError);
  });

  it('read on the others a category and a product written on one (admin and collection)', async () => {
    const token = await demoToken(at(0).mall('admin', 'writes'), scopes);
    const category = await admin(1, 'writes', token, 'categories', { category_name: 'replica shelf' });
    expect(category.status).toBe(201);
    const product = await admin(2, 'writes', token, 'products', {
      product_name: 'replica lamp',
      supply_price: '100.00',
      price: '12345.00',
      display: 'T',
      selling: 'T',
    });
    expect(product.status).toBe(201);
    const { category_no } = category.body.category;
    const { product_no } = product.body.product;
    for (const i of [0, 1, 2]) {
      expect((await admin(i, 'writes', token, `categories/${category_no}`)).body.category).toMatchObject({
        category_name: 'replica shelf',
      });
      expect((await admin(i, 'writes', token, `products/${product_no}`)).body.product).toMatchObject({
        product_name: 'replica lamp',
      });
      const listed = await collection(
        i,
        'writes',
        'products?collection_product_category=C900000&product_name=replica%20lamp',
      );
      expect(listed.status).toBe(200);
      expect(listed.body.products).toEqual([expect.objectContaining({ product_no, price: '12345.00' })]);
    }
  });

  it('refuse at the others a refresh token rotated at one', async () => {
    const driver = (i: number) => oauthAppDriver(at(i).url('admin'));
    const tokens = await driver(0).exchange(await driver(0).authorizeCode());
    const rotated = await driver(1).refresh(tokens.refreshToken);
    expect(rotated.refreshToken).not.toBe(tokens.refreshToken);
    for (const i of [2, 0])
      await expect(driver(i).refresh(tokens.refreshToken)).rejects.toBeInstanceOf(
        ReauthorizationRequiredError,
      );
    expect((await driver(2).refresh(rotated.refreshToken)).accessToken).toBeTruthy();
  });

  it('admit the admin leaky bucket’s burst over all three, then 429 with the envelope', async () => {
    const limit = (await loadSpec('admin')).document['x-rate-limit'] as {
      capacity: number;
      'drain-per-second': number;
    };
    const token = await demoToken(at(0).mall('admin', 'burst'), scopes);
    await control(1).resetRateLimits('burst');
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: limit.capacity + 15 }, (_, i) => admin(i, 'burst', token, 'categories?limit=1')),
    );
    // The bucket drains in real time: what drained while the burst ran may be admitted too.
    const drained = Math.floor(((Date.now() - started) / 1000) * limit['drain-per-second']);
    const admitted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(admitted.length).toBeGreaterThanOrEqual(limit.capacity);
    expect(admitted.length).toBeLessThanOrEqual(limit.capacity + drained);
    expect(admitted.length + refused.length).toBe(answers.length);
    expect(refused[0]?.body).toEqual({
      error: { code: expect.any(String), message: expect.any(String), more_info: expect.anything() },
    });
    const used = admitted.map((answer) => answer.headers.get('x-api-call-limit'));
    expect(used).toContain(`${limit.capacity}/${limit.capacity}`);
    expect(used).not.toContain(`${limit.capacity + 1}/${limit.capacity}`);
  });

  it('journal every call of a mall whatever replica took it, and fire a "next 3 calls" fault 3 times in total', async () => {
    const token = await demoToken(at(0).mall('admin', 'journal'), scopes);
    await control(2).clearJournal('journal');
    for (let i = 0; i < 6; i++)
      expect((await admin(i, 'journal', token, `categories?limit=${i + 1}`)).status).toBe(200);
    for (const i of [0, 1, 2]) {
      const entries = await control(i).journal('journal', { operationId: 'listCategories' });
      expect(entries.map((entry) => entry.query)).toEqual(
        Array.from({ length: 6 }, (_, n) => ({ limit: String(n + 1) })),
      );
    }

    await control(1).addFault('journal', {
      match: { operationId: 'listCategories' },
      action: { kind: 'status', status: 503 },
      times: 3,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await admin(i, 'journal', token, 'categories')).status);
    expect(statuses).toEqual([503, 503, 503, 200, 200, 200]);
    for (const i of [0, 1, 2]) expect(await control(i).faults('journal')).toEqual([]);
  });

  it('see at every replica a reset made at one: data, journal and faults', async () => {
    const token = await demoToken(at(0).mall('admin', 'reset'), scopes);
    expect((await admin(1, 'reset', token, 'categories', { category_name: 'gone after reset' })).status).toBe(
      201,
    );
    await control(2).addFault('reset', { match: { method: 'DELETE' }, action: { kind: 'drop' } });
    await control(0).reset('reset', 'empty');
    for (const i of [0, 1, 2]) {
      expect(await control(i).count('reset')).toBe(0);
      expect(await control(i).faults('reset')).toEqual([]);
    }
    const fresh = await demoToken(at(1).mall('admin', 'reset'), scopes);
    for (const i of [0, 1, 2]) {
      const listed = await admin(i, 'reset', fresh, 'categories');
      expect(listed.status).toBe(200);
      expect(listed.body.categories).toEqual([]);
    }
  });
});
