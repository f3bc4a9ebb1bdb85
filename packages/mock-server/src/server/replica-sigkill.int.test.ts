// Nothing lost when a replica dies: three `mall-api-mock` processes on one real PostgreSQL and one
// real Redis take concurrent product creates, one of them is SIGKILLed in the middle, and the two
// survivors then hold every create that was acknowledged with a 2xx (readable by its id, with the
// name it was created with) and nothing half-written (every product of the run has the fields its
// create required; the admin count, the admin list and the collection count agree; both survivors
// give the same snapshot). A create the dead replica never acknowledged may be there or not.
import { loadSpec } from '@mall-api/spec-model';
import { expect, it } from 'vitest';
import { createControlClient } from '../qa/control-client.js';
import { demoToken, exitCode } from '../testing/cli-process.js';
import { collectionAuthorization, type Replica, useReplicaSet } from '../testing/replica-set.js';

const stores = useReplicaSet(3);
const { replicas } = stores;

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here
type Body = Record<string, any>;

const mallId = 'sigkill';
const creates = 60;
const inFlight = 6;
const killAfter = 20;

it('keeps every acknowledged write and no half-written one when a replica is SIGKILLed mid-run', async () => {
  const { document } = await loadSpec('admin');
  const createSchema = (document.components as Body).schemas.CreateProductRequest.properties.request;
  const required = createSchema.required as string[];
  const token = await demoToken(
    replicas[0]?.mall('admin', mallId) ?? '',
    'mall.read_product,mall.write_product',
  );
  const [victim, ...survivors] = replicas as [Replica, ...Replica[]];
  const control = (replica: Replica) => createControlClient(replica.url('admin'));
  /** A call to the mall; a 429 (the run makes far more calls than the admin bucket holds) empties the bucket and tries again. */
  const call = async (replica: Replica, path: string, init: RequestInit = {}): Promise<Response> => {
    const response = await fetch(`${replica.mall('admin', mallId)}/api/v2/admin/${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    if (response.status !== 429) return response;
    await control(survivors[0] as Replica).resetRateLimits(mallId);
    return call(replica, path, init);
  };
  const get = async (replica: Replica, path: string) => {
    const response = await call(replica, path);
    expect(response.status, path).toBe(200);
    return (await response.json()) as Body;
  };

  const acknowledged = new Map<number, string>();
  let killed = false;
  let next = 0;
  /** Creates product n at a live replica (round-robin). */
  const create = async (n: number): Promise<void> => {
    const live = killed ? survivors : replicas;
    const replica = live[n % live.length] as Replica;
    const name = `sigkill product ${n}`;
    const response = await call(replica, 'products', {
      method: 'POST',
      body: JSON.stringify({
        request: { product_name: name, supply_price: '100.00', price: '2000.00', display: 'T', selling: 'T' },
      }),
    }).catch(() => undefined); // the killed replica's connections break: not acknowledged
    if (response && response.status >= 200 && response.status < 300)
      acknowledged.set(((await response.json()) as Body).product.product_no, name);
    if (!killed && acknowledged.size >= killAfter) {
      killed = true;
      victim.child.kill('SIGKILL');
    }
  };
  const worker = async () => {
    while (next < creates) await create(next++);
  };
  const victimExit = exitCode(victim.child);
  await Promise.all(Array.from({ length: inFlight }, worker));
  await victimExit;
  expect(victim.child.signalCode).toBe('SIGKILL');
  expect(acknowledged.size).toBeGreaterThanOrEqual(creates - inFlight);

  for (const replica of survivors)
    for (const [productNo, name] of acknowledged)
      expect((await get(replica, `products/${productNo}`)).product).toMatchObject({ product_name: name });

  const [first, second] = survivors as [Replica, Replica];
  const listed = (await get(first, 'products?product_name=sigkill&limit=100')).products as Body[];
  expect(listed.length).toBeGreaterThanOrEqual(acknowledged.size);
  expect(listed.length).toBeLessThanOrEqual(creates);
  for (const product of listed) {
    for (const field of required) expect(product[field], field).toBeDefined();
    expect(product.product_name).toMatch(/^sigkill product \d+$/);
  }
  expect((await get(second, 'products/count?product_name=sigkill')).count).toBe(listed.length);
  const counted = await fetch(
    `${second.mall('collection', mallId)}/api/products/count?collection_product_category=C900000&product_name=sigkill`,
    { headers: { authorization: collectionAuthorization } },
  );
  expect(((await counted.json()) as Body).count).toBe(listed.length);
  expect(await control(first).snapshot(mallId)).toEqual(await control(second).snapshot(mallId));
}, 90_000);
