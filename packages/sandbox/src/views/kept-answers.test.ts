// Answers the sandbox keeps: the same analytics, admin or collection read gives the same answer
// with its JSON text serialized once; a write the answer depends on (a product for a report,
// anything for an admin read, a product or category of any mall or a mall created or dropped for
// the collection) gives an answer computed afresh.
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxMalls, type SandboxMalls } from '../malls/sandbox-malls.js';
import type { Found, Refusal, SandboxCall, SandboxOutcome } from '../protocol.js';
import { collectionCall } from '../testing/test-malls.js';

const opened: SandboxMalls[] = [];
afterEach(async () => {
  for (const malls of opened.splice(0)) await malls.close();
});

const sales: SandboxCall = {
  api: 'analytics',
  operationId: 'listProductSales',
  path: {},
  query: { mall_id: 'kept', start_date: '2026-10-01', end_date: '2026-10-31', limit: 100 },
  body: undefined,
  mallId: 'kept',
};
const answered = (result: SandboxOutcome): Exclude<SandboxOutcome, Refusal> => {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result;
};
/** A read's answer (failing the test for anything else). */
const foundOf = (result: SandboxOutcome): Found => {
  const done = answered(result);
  if (done.kind !== 'found') throw new Error(`not a read: ${done.kind}`);
  return done;
};

describe('kept analytics answers', () => {
  it('carry their body as JSON text, the same for the same call', async () => {
    const malls = await createSandboxMalls();
    opened.push(malls);
    const first = foundOf(await malls.handle(sales));
    expect(first.json).toBe(JSON.stringify(first.body));
    expect((first.body as { sales: unknown[] }).sales.length).toBeGreaterThan(0);
    expect(foundOf(await malls.handle(sales)).json).toBe(first.json);
  });

  it('are computed afresh after a product write', async () => {
    const malls = await createSandboxMalls();
    opened.push(malls);
    const before = answered(await malls.handle(sales));
    const products = answered(
      await malls.handle({ ...sales, api: 'admin', operationId: 'listProducts', query: { limit: 1 } }),
    ).body as { products: { product_no: number }[] };
    const productNo = products.products[0]?.product_no;
    answered(
      await malls.handle({
        ...sales,
        api: 'admin',
        operationId: 'updateProduct',
        query: {},
        path: { product_no: productNo },
        body: { request: { product_name: 'Renamed for the report' } },
      }),
    );
    const after = foundOf(await malls.handle(sales));
    expect(after).not.toBe(before);
    expect(after.json).toBe(JSON.stringify(after.body));
  });
});

const admin = (operationId: string, parts: Partial<SandboxCall> = {}): SandboxCall => ({
  api: 'admin',
  operationId,
  path: {},
  query: {},
  body: undefined,
  mallId: 'kept',
  ...parts,
});

describe('kept admin answers', () => {
  it('give the same list again until a write, then the list with the write', async () => {
    const malls = await createSandboxMalls();
    opened.push(malls);
    const list = admin('listCategories', { query: { limit: 100 } });
    const names = (result: SandboxOutcome) =>
      (answered(result).body as { categories: { category_name: string }[] }).categories.map(
        (category) => category.category_name,
      );
    const first = foundOf(await malls.handle(list));
    expect(first.json).toBe(JSON.stringify(first.body));
    expect(await malls.handle(list)).toBe(first);
    answered(
      await malls.handle(
        admin('createCategory', { body: { shop_no: 1, request: { category_name: 'Kept?' } } }),
      ),
    );
    const after = await malls.handle(list);
    expect(after).not.toBe(first);
    expect(names(after)).toContain('Kept?');
    expect(names(first)).not.toContain('Kept?');
  });

  it('keep answers per query; an unknown id is refused, and found once created', async () => {
    const malls = await createSandboxMalls();
    opened.push(malls);
    const one = answered(await malls.handle(admin('listProducts', { query: { limit: 1 } })));
    const two = answered(await malls.handle(admin('listProducts', { query: { limit: 2 } })));
    expect((one.body as { products: unknown[] }).products).toHaveLength(1);
    expect((two.body as { products: unknown[] }).products).toHaveLength(2);
    const missing = admin('getCategory', { path: { category_no: 987654 } });
    expect((await malls.handle(missing)).ok).toBe(false);
    const created = answered(
      await malls.handle(
        admin('createCategory', { body: { shop_no: 1, request: { category_name: 'Late' } } }),
      ),
    ).body as { category: { category_no: number } };
    const read = admin('getCategory', { path: { category_no: created.category.category_no } });
    expect(
      (answered(await malls.handle(read)).body as { category: { category_name: string } }).category
        .category_name,
    ).toBe('Late');
  });
});

const countOf = (result: SandboxOutcome) => (foundOf(result).body as { count: number }).count;

describe('kept collection answers', () => {
  it('give the same answer over every mall again until a product of any mall is written', async () => {
    const malls = await createSandboxMalls({ malls: ['kept'] });
    opened.push(malls);
    const renamed = collectionCall('countProducts', { product_name: ['Renamed for the collection'] });
    const first = foundOf(await malls.handle(renamed));
    expect(first.json).toBe(JSON.stringify(first.body));
    expect(countOf(first)).toBe(0);
    expect(await malls.handle(renamed)).toBe(first);
    const listed = answered(await malls.handle(admin('listProducts', { query: { limit: 1, display: 'T' } })))
      .body as { products: { product_no: number }[] };
    answered(
      await malls.handle(
        admin('updateProduct', {
          path: { product_no: listed.products[0]?.product_no },
          body: { request: { product_name: 'Renamed for the collection' } },
        }),
      ),
    );
    expect(countOf(await malls.handle(renamed))).toBe(1);
  });

  it('are computed afresh once a mall is created or dropped', async () => {
    const malls = await createSandboxMalls({ malls: ['kept'] });
    opened.push(malls);
    const all = collectionCall('countProducts');
    const one = countOf(await malls.handle(all));
    expect(one).toBeGreaterThan(0);
    answered(await malls.handle(admin('listProducts', { mallId: 'another', query: { limit: 1 } })));
    expect(countOf(await malls.handle(all))).toBe(2 * one);
    expect(await malls.drop('another')).toBe(true);
    expect(countOf(await malls.handle(all))).toBe(one);
  });
});
