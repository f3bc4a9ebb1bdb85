// Dredd against our mocks: every operation × every documented status passes, against the static
// mock and against the stateful sandbox (where the hooks create what each transaction acts on and
// the bodies are checked against the spec's schemas); and the same run against a server that
// breaks the contract fails, so the check is real. The runs are independent (each its own mock and
// Dredd process) and run side by side: each waits on its Dredd process and mock most of the time.
// An integration test (eight Dredd processes and six mocks): `npm test` and CI run it, the fast
// suite leaves it out.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiName, loadSpec } from '@mall-api/spec-model';
import { describe, it } from 'vitest';
import { runContract } from './run-contract.js';
import { prepareTarget } from './targets.js';

/** One transaction per documented response of each operation of the bundled spec. */
const transactionsOf = async (api: ApiName) =>
  (await loadSpec(api)).operations.flatMap((operation) => operation.responseCodes).length;

describe.concurrent.each<ApiName>(['collection', 'admin', 'analytics'])('%s contract', (api) => {
  it.for([
    ['the mock', false],
    ['the sandbox', true],
  ] as const)(
    'passes every documented transaction against %s',
    { timeout: 300_000 },
    async ([, sandbox], { expect }) => {
      const transactions = await transactionsOf(api);
      expect(transactions).toBeGreaterThan(0);
      const target = await prepareTarget(api, { sandbox });
      try {
        const result = await runContract({ api, target });
        expect(result.output).not.toMatch(/^fail:/m);
        expect(result.exitCode).toBe(0);
        expect(result.passed).toBe(transactions);
        expect(result.failed).toBe(0);
        expect(result.skipped).toBe(0);
      } finally {
        await target.close();
      }
    },
  );
});

/** Runs the collection contract against a server that answers every request with 200 and `body`. */
async function collectionContractAgainst(body: unknown) {
  const liar = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
  const { port } = liar.address() as AddressInfo;
  try {
    const target = await prepareTarget('collection', {
      baseUrl: `http://127.0.0.1:${port}`,
      clientId: 'demo-partner',
      clientSecret: 'demo-partner-secret',
    });
    return await runContract({ api: 'collection', target });
  } finally {
    liar.closeAllConnections();
    await new Promise((resolve) => liar.close(resolve));
  }
}

describe.concurrent('a server that breaks the contract', () => {
  it('fails the collection contract when it answers every request with 200 and an empty object', async ({
    expect,
  }) => {
    const result = await collectionContractAgainst({});
    expect(result.exitCode).not.toBe(0);
    expect(result.failed).toBeGreaterThan(0);
  }, 120_000);

  it('fails a body with the documented keys but a value of the wrong type (the schema is checked)', async ({
    expect,
  }) => {
    const result = await collectionContractAgainst({ count: 'many' });
    expect(result.output).toMatch(/^fail: GET \(200\) \/api\/products\/count/m);
    expect(result.output).toMatch(/At '\/count' Invalid type: string \(expected integer\)/);
  }, 120_000);
});
