// The events guide's TypeScript examples, run as written by node against the default sandbox admin
// mock (only its port changed, a fresh access token of the demo mall in `MALL_ACCESS_TOKEN`): the
// receiver example answers its own delivery 200 and prints the product numbers of the bulk event;
// the settings example prints the mall's reception status, its scopes and an empty failure log (the
// mocks here have no receiver, so nothing was delivered). The table of event numbers is the spec's,
// and so are the retry policy and the capacities its Retries section states (`x-webhook-delivery`)
// and the longest delay of a fault on deliveries (the control spec's `DeliveryDelayMs`).
import { issueDemoTokens, startMockServers } from '@mall-api/mock-server';
import { loadSpecSync, nodeAt, webhookDeliveryOf, webhooksOf } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guideExamples, runExample } from './guide-examples.js';

const { text: guide, examples } = await guideExamples('webhooks');
const documentedAdmin = 'http://127.0.0.1:4011';

let served: Awaited<ReturnType<typeof startMockServers>>;
beforeAll(async () => {
  served = await startMockServers({ ports: { collection: 0, admin: 0, analytics: 0 }, sandbox: { seed: 1 } });
});
afterAll(async () => {
  await served?.close();
});

/** Runs example `index` against the admin mock; its exit code and output. */
async function run(index: number) {
  const source = examples[index - 1]?.source ?? '';
  const admin = served.mocks.find((mock) => mock.api === 'admin');
  if (!admin) throw new Error('no admin mock');
  const tokens = await issueDemoTokens(served.authority, served.oauth.scopes, 'demomall');
  return runExample(source, [[documentedAdmin, admin.url]], { MALL_ACCESS_TOKEN: tokens.access_token });
}

/** A count as the guide writes it: a word up to ten, else with thousands separators. */
const counted = (count: number) =>
  ['zero', 'once', 'twice', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'][count] ??
  count.toLocaleString('en-US');

describe('the events guide', () => {
  it('states the delivery policy the admin spec declares', () => {
    const policy = webhookDeliveryOf(loadSpecSync('admin').document);
    const waits = Array.from({ length: policy.maxAttempts - 1 }, (_, retry) =>
      String((policy.backoffMs * 2 ** retry) / 1000),
    );
    const text = guide.replace(/\s+/g, ' ');
    expect(text).toContain(`no answer within ${policy.timeoutMs / 1000} seconds`);
    expect(text).toContain(`trying again after ${waits.slice(0, -1).join(', ')} and ${waits.at(-1)} seconds`);
    expect(text).toContain(`an event is tried at most ${counted(policy.maxAttempts)} times`);
    expect(text).toContain(`The log keeps a mall's latest ${counted(policy.logCapacity)} attempts`);
    expect(text).toContain(`outbox holds at most ${counted(policy.outboxCapacity)} undelivered events`);
    expect(text).toContain('the oldest is discarded and logged as a failed delivery');
    const longestDelay = nodeAt(
      loadSpecSync('control').document,
      '#/components/schemas/DeliveryDelayMs/maximum',
    );
    expect(text).toContain(
      `delays a delivery (\`delay\`, by at most ${Number(longestDelay) / 1000} seconds)`,
    );
  });

  it('lists every event number the admin spec declares', () => {
    for (const { eventNo } of webhooksOf(loadSpecSync('admin').document))
      expect(guide).toContain(String(eventNo));
    expect(examples).toHaveLength(2);
  });

  it.each([
    {
      index: 1,
      does: 'the receiver checks the key, parses the delivery and answers it 200',
      prints: [/re-read products \[ '11', '12' \]/, /^answered 200$/m],
    },
    {
      index: 2,
      does: 'reads the webhook setting and an empty failure log from the sandbox (no receiver)',
      prints: [/^reception T scopes mall\.read_\w+ mall\.read_\w+$/m, /^0 failed deliveries$/m],
    },
  ])('example $index: $does', { timeout: 120_000 }, async ({ index, prints }) => {
    const { code, out, err } = await run(index);
    expect(err).toBe('');
    expect(code).toBe(0);
    for (const line of prints) expect(out).toMatch(line);
  });
});
