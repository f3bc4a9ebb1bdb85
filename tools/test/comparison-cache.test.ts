// Optic's comparison kept on disk: a pair is compared once and read back the same; another document
// is another comparison.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedComparison } from '../src/api-releases/comparison-cache.mjs';

const directory = mkdtempSync(join(tmpdir(), 'comparison-cache-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('cachedComparison', () => {
  it('compares a pair once, then reads the kept result; another document is compared anew', async () => {
    const compared: string[] = [];
    const compare = (name: string) => async () => {
      compared.push(name);
      return { diffs: [{ after: name }], results: [{ passed: false, name }] };
    };
    const before = { openapi: '3.1.0', info: { version: '1.0.0' } };
    const after = { openapi: '3.1.0', info: { version: '1.1.0' } };
    const first = await cachedComparison(before, after, compare('first'), directory);
    const again = await cachedComparison(before, structuredClone(after), compare('again'), directory);
    expect(again).toEqual(first);
    const other = await cachedComparison(before, { ...after, paths: {} }, compare('other'), directory);
    expect(other.results).toEqual([{ passed: false, name: 'other' }]);
    expect(compared).toEqual(['first', 'other']);
    expect(readdirSync(directory).filter((file) => file.endsWith('.json'))).toHaveLength(2);
    expect(readdirSync(directory).filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });
});
