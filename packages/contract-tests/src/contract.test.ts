// Dredd against our mocks: every operation × every documented status passes; and the same run
// against a server that breaks the contract fails, so the check is real.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runContract } from './run-contract.js';
import { prepareTarget } from './targets.js';

describe.each([
  ['collection', 5 * 8],
  ['admin', 337],
  ['analytics', 24 * 9],
])('%s contract', (api, transactions) => {
  it(`passes all ${transactions} transactions against the mock`, async () => {
    const target = await prepareTarget(api, {});
    try {
      const result = await runContract({ api, target });
      expect(result.output).not.toMatch(/^fail:/m);
      expect(result.exitCode).toBe(0);
      expect(result.passed).toBe(transactions);
      expect(result.failed).toBe(0);
    } finally {
      await target.close();
    }
  }, 300_000);
});

describe('a server that breaks the contract', () => {
  it('fails the collection contract when it answers every request with 200 and an empty object', async () => {
    const liar = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    const { port } = liar.address() as AddressInfo;
    try {
      const target = await prepareTarget('collection', {
        CONTRACT_BASE_URL: `http://127.0.0.1:${port}`,
        CONTRACT_CLIENT_ID: 'demo-partner',
        CONTRACT_CLIENT_SECRET: 'demo-partner-secret',
      });
      const result = await runContract({ api: 'collection', target });
      expect(result.exitCode).not.toBe(0);
      expect(result.failed).toBeGreaterThan(0);
    } finally {
      liar.closeAllConnections();
      await new Promise((resolve) => liar.close(resolve));
    }
  }, 120_000);
});
