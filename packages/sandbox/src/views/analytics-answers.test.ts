// Analytics answers the sandbox keeps: the same call gives the same report with its JSON text
// serialized once, and a product write gives a report computed afresh.
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxMalls, type SandboxMalls } from '../malls/sandbox-malls.js';
import type { SandboxAnswer, SandboxCall, SandboxResult } from '../sandbox-result.js';

const opened: SandboxMalls[] = [];
afterEach(() => {
  for (const malls of opened.splice(0)) malls.close();
});

const sales: SandboxCall = {
  api: 'analytics',
  operationId: 'listProductSales',
  path: {},
  query: { mall_id: 'kept', start_date: '2026-10-01', end_date: '2026-10-31', limit: 100 },
  body: undefined,
  mallId: 'kept',
};
const answered = (result: SandboxResult): SandboxAnswer => {
  if (result.kind !== 'answer') throw new Error(`refused: ${result.message}`);
  return result;
};

describe('kept analytics answers', () => {
  it('carry their body as JSON text, the same for the same call', async () => {
    const malls = await createSandboxMalls();
    opened.push(malls);
    const first = answered(malls.handle(sales));
    expect(first.json).toBe(JSON.stringify(first.body));
    expect((first.body as { sales: unknown[] }).sales.length).toBeGreaterThan(0);
    expect(answered(malls.handle(sales)).json).toBe(first.json);
  });

  it('are computed afresh after a product write', async () => {
    const malls = await createSandboxMalls();
    opened.push(malls);
    const before = answered(malls.handle(sales));
    const products = answered(
      malls.handle({ ...sales, api: 'admin', operationId: 'listProducts', query: { limit: 1 } }),
    ).body as { products: { product_no: number }[] };
    const productNo = products.products[0]?.product_no;
    answered(
      malls.handle({
        ...sales,
        api: 'admin',
        operationId: 'updateProduct',
        query: {},
        path: { product_no: productNo },
        body: { request: { product_name: 'Renamed for the report' } },
      }),
    );
    const after = answered(malls.handle(sales));
    expect(after).not.toBe(before);
    expect(after.json).toBe(JSON.stringify(after.body));
  });
});
