// The error envelope's codes as the bundles pair them with statuses: one code per status, the
// same table in every bundle (they share the one schema), the codes the mock answers with for
// malformed HTTP among them, and a document whose codes lack a status refused.
import { describe, expect, it } from 'vitest';
import { apiNames } from './api-names.js';
import { errorCodesOf } from './error-codes.js';
import { loadSpecSync } from './spec-model.js';

const admin = () => errorCodesOf(loadSpecSync('admin').document);

describe('errorCodesOf', () => {
  it('pairs each status with one code, alike in every bundle', () => {
    const table = admin();
    expect(table.get(404)).toBe('not_found');
    expect(table.get(422)).toBe('invalid_parameter');
    expect(new Set(table.values()).size).toBe(table.size);
    for (const api of [...apiNames, 'control'] as const)
      expect(errorCodesOf(loadSpecSync(api).document), api).toEqual(table);
  });

  it('has a code for every status the mock answers malformed HTTP and the balancer with', () => {
    const table = admin();
    for (const status of [400, 408, 413, 414, 415, 431, 501, 502, 503, 504])
      expect(table.get(status), String(status)).toMatch(/^[a-z_]+$/);
  });

  it('refuses a document whose code is not described with its status', () => {
    const code = { type: 'string', enum: ['odd'], 'x-enumDescriptions': { odd: 'no status here' } };
    const document = {
      components: {
        schemas: {
          ErrorEnvelope: { properties: { error: { properties: { code } } } },
        },
      },
    };
    expect(() => errorCodesOf(document)).toThrow(/odd/);
    expect(() => errorCodesOf({})).toThrow(/ErrorEnvelope/);
  });
});
