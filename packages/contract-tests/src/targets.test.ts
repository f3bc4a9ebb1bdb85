// The contract run's target: CONTRACT_SANDBOX=1 chooses a sandbox mock, which answers from a
// sandbox mall (the Dredd runs against each target are contract.int.test.ts). The target is
// prepared before the test (loading and seeding the mock is most of the file's time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractTarget, prepareTarget, targetOptionsFromEnv } from './targets.js';

let target: ContractTarget;
beforeAll(async () => {
  target = await prepareTarget('admin', targetOptionsFromEnv({ CONTRACT_SANDBOX: '1' }));
});
afterAll(() => target?.close());

describe('the sandbox target', () => {
  it('is chosen by CONTRACT_SANDBOX=1 and answers from a sandbox mall (an unknown product is a 404)', async () => {
    expect(target.sandbox).toBe(true);
    const [authorization = ''] = target.authorizations;
    const response = await fetch(`${target.baseUrl}/api/v2/admin/products/2147483647`, {
      headers: { authorization },
    });
    expect(response.status).toBe(404);
  });
});
