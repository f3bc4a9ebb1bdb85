// The README's sandbox QA flow is a script that works: the curl block under
// `<!-- sandbox-qa-flow -->` runs with bash (set -euo pipefail) against a fresh seeded sandbox,
// and each of its answers says what the README promises (the created product read back in its
// category, a refused bundle creating nothing, the collection and analytics views of the same
// mall, placements gone with their category).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockServers } from '@mall-api/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The shell block that follows the marker comment. */
function flowScript(): string {
  const match = /<!-- sandbox-qa-flow -->\s*```sh\n([\s\S]*?)```/.exec(readme);
  if (!match?.[1]) throw new Error('README has no sandbox QA flow block');
  return match[1];
}

/** Runs a bash script to its end, without blocking this process (the mocks live in it). */
function runBash(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the answers are read loosely; the mock tests check their schemas
type Answer = Record<string, any>;

describe('the README sandbox QA flow', () => {
  let served: Awaited<ReturnType<typeof startMockServers>>;
  beforeAll(async () => {
    served = await startMockServers({
      ports: { collection: 0, admin: 0, analytics: 0 },
      sandbox: { seed: 1 },
    });
  });
  afterAll(async () => {
    await served.close();
  });

  it('runs with curl against a fresh sandbox, and every step answers as described', async () => {
    const url = (api: string) => served.mocks.find((mock) => mock.api === api)?.url ?? '';
    const { code, stdout } = await runBash(flowScript(), {
      ADMIN: url('admin'),
      COLLECTION: url('collection'),
      ANALYTICS: url('analytics'),
    });
    expect(code).toBe(0);
    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Answer);
    expect(answers).toHaveLength(9);
    const [placed, product, count, refused, bundles, collection, sales, deleted, afterDelete] =
      answers as Answer[];
    const productNo = product?.product.product_no;
    expect(product?.product).toMatchObject({ product_name: 'QA Wool Scarf', price: '29000.00' });
    expect(product?.product.category).toEqual([
      { category_no: deleted?.category.category_no, recommend: 'T', new: 'F' },
    ]);
    expect(placed?.products.map((p: Answer) => p.product_no)).toEqual([productNo]);
    expect(count).toEqual({ count: 1 });
    expect(refused?.error.code).toBe('invalid_parameter');
    expect(refused?.error.more_info.violations[0].name).toBe(
      'request.bundle_product_components/0/product_no',
    );
    expect(bundles).toEqual({ bundleproducts: [] });
    expect(collection?.store_products[0]).toMatchObject({ product_no: productNo, store_id: 'demomall' });
    expect(sales?.sales.length).toBeGreaterThan(0);
    expect(afterDelete?.product.category).toEqual([]);
  }, 60_000);
});
