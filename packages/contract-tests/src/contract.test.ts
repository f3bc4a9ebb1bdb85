// Dredd against our collection mock: every operation × every documented status passes; and the
// same run against a server that breaks the contract fails, so the check is real.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basicAuthorization } from '@mall-api/auth';
import { startMockServer } from '@mall-api/mock-server';
import { describe, expect, it } from 'vitest';
import { runContract } from './run-contract.js';

const authorization = basicAuthorization('demo-partner', 'demo-partner-secret');

describe('collection contract', () => {
  it('passes every transaction (5 operations × 8 statuses) against the mock', async () => {
    const mock = await startMockServer({ api: 'collection', port: 0 });
    try {
      const result = await runContract({
        api: 'collection',
        baseUrl: mock.url,
        authorization,
        targetIsMock: true,
      });
      expect(result.output).not.toMatch(/fail:/);
      expect(result.exitCode).toBe(0);
      expect(result.passed).toBe(40);
      expect(result.failed).toBe(0);
    } finally {
      await mock.close();
    }
  }, 120_000);

  it('fails against a server that answers every request with 200 and an empty object', async () => {
    const liar = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    const { port } = liar.address() as AddressInfo;
    try {
      const result = await runContract({
        api: 'collection',
        baseUrl: `http://127.0.0.1:${port}`,
        authorization,
        targetIsMock: false,
      });
      expect(result.exitCode).not.toBe(0);
      expect(result.failed).toBeGreaterThan(0);
    } finally {
      liar.closeAllConnections();
      await new Promise((resolve) => liar.close(resolve));
    }
  }, 120_000);
});
