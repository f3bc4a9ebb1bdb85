// Specification of the constant-time string comparison used for credentials and OAuth state.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';

describe('constantTimeEqual', () => {
  afterEach(() => {
    vi.doUnmock('node:crypto');
    vi.resetModules();
  });

  it('agrees with === for any pair of strings, including different lengths', async () => {
    const { constantTimeEqual } = await import('./constant-time.js');
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(a === b);
        expect(constantTimeEqual(a, a)).toBe(true);
      }),
    );
  });

  it('compares equal-length digests with crypto.timingSafeEqual, even for strings of different lengths', async () => {
    const calls: Array<[number, number]> = [];
    vi.doMock('node:crypto', async (importOriginal) => {
      const actual = await importOriginal<typeof import('node:crypto')>();
      return {
        ...actual,
        timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
          calls.push([a.byteLength, b.byteLength]);
          return actual.timingSafeEqual(a, b);
        },
      };
    });
    vi.resetModules();
    const { constantTimeEqual } = await import('./constant-time.js');
    expect(constantTimeEqual('short', 'a much longer string')).toBe(false);
    expect(calls).toEqual([[32, 32]]);
  });
});
