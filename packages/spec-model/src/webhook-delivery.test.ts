// The delivery policy a document declares in `x-webhook-delivery`: read from the one operation
// that carries it (through a `$ref`), refused when no operation or two declare it, or a value is
// not what the extension allows.
import { describe, expect, it } from 'vitest';
import { type JsonObject, loadSpecSync, webhookDeliveryOf } from './index.js';

const declared: JsonObject = {
  'timeout-ms': 5000,
  'max-attempts': 4,
  'backoff-ms': 1000,
  'outbox-capacity': 1000,
  'outbox-overflow': 'log-discarded',
  'log-capacity': 1000,
  targets: 'private-networks',
  'x-provenance': 'inferred',
};
const documentWith = (...policies: JsonObject[]): JsonObject => ({
  openapi: '3.1.0',
  paths: Object.fromEntries(
    policies.map((_, index) => [
      `/setting/${index}`,
      {
        get: {
          operationId: `getSetting${index}`,
          'x-webhook-delivery': { $ref: `#/components/x-policies/${index}` },
        },
      },
    ]),
  ),
  components: { 'x-policies': Object.fromEntries(policies.map((policy, index) => [String(index), policy])) },
});

describe('webhookDeliveryOf', () => {
  it('reads the policy the one declaring operation states', () => {
    expect(webhookDeliveryOf(documentWith({ ...declared, 'timeout-ms': 2500 }))).toEqual({
      timeoutMs: 2500,
      maxAttempts: 4,
      backoffMs: 1000,
      outboxCapacity: 1000,
      outboxOverflow: 'log-discarded',
      logCapacity: 1000,
      targets: 'private-networks',
    });
  });

  it('refuses a document declaring it never or twice, or a value it does not allow', () => {
    expect(() => webhookDeliveryOf(documentWith())).toThrow(/0 times/);
    expect(() => webhookDeliveryOf(documentWith(declared, declared))).toThrow(/2 times/);
    expect(() => webhookDeliveryOf(documentWith({ ...declared, 'max-attempts': 0 }))).toThrow(/max-attempts/);
    expect(() => webhookDeliveryOf(documentWith({ ...declared, 'outbox-overflow': 'drop' }))).toThrow(
      /outbox-overflow/,
    );
  });

  it('reads the shipped admin document', () => {
    const policy = webhookDeliveryOf(loadSpecSync('admin').document);
    expect(policy.maxAttempts).toBeGreaterThan(1);
    expect(policy.outboxOverflow).toBe('log-discarded');
  });
});
