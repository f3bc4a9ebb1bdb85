// The run's order: the longest-looking test files start first, whatever their project; the files
// of a project sharing its modules run together.
import { describe, expect, it } from 'vitest';
import { type FileFacts, kindRank, longestFirst } from '../src/longest-first-sequencer.js';

const order = (files: FileFacts[]) => longestFirst(files).map(({ file }) => file);

describe('longest-first order', () => {
  it('ranks Chromium files over integration files over the rest', () => {
    expect(['a.browser.test.ts', 'a.int.test.ts', 'a.test.ts'].map(kindRank)).toEqual([2, 1, 0]);
  });

  it('puts remembered durations first, longest first', () => {
    expect(
      order([
        { file: 'tools/quick.int.test.ts', durationMs: 2_000 },
        { file: 'docs/slow.test.ts', durationMs: 300_000 },
        { file: 'sandbox/middle.test.ts', durationMs: 60_000 },
      ]),
    ).toEqual(['docs/slow.test.ts', 'sandbox/middle.test.ts', 'tools/quick.int.test.ts']);
  });

  it('without durations, orders by kind and then by size, across projects', () => {
    expect(
      order([
        { file: 'admin-client/small.test.ts', size: 900 },
        { file: 'admin-client/big.test.ts', size: 20_000 },
        { file: 'tools/packed-install.int.test.ts', size: 15_000 },
        { file: 'sandbox/malls.int.test.ts', size: 18_000 },
        { file: 'docs/site.browser.test.ts', size: 4_000 },
      ]),
    ).toEqual([
      'docs/site.browser.test.ts',
      'sandbox/malls.int.test.ts',
      'tools/packed-install.int.test.ts',
      'admin-client/big.test.ts',
      'admin-client/small.test.ts',
    ]);
  });

  it('orders every file by kind and size when one has no remembered duration (a new file)', () => {
    expect(
      order([
        { file: 'a.test.ts', durationMs: 90_000, size: 100 },
        { file: 'b.int.test.ts', size: 100 },
        { file: 'c.test.ts', durationMs: 1_000, size: 5_000 },
      ]),
    ).toEqual(['b.int.test.ts', 'c.test.ts', 'a.test.ts']);
  });

  it('runs the files of a project sharing its modules together, where its longest file would start', () => {
    expect(
      order([
        { file: 'tools/a.test.ts', durationMs: 50_000 },
        { file: 'sandbox/short.test.ts', durationMs: 1_000, sharing: 'sandbox' },
        { file: 'mock-server/long.test.ts', durationMs: 40_000, sharing: 'mock-server' },
        { file: 'sandbox/long.test.ts', durationMs: 60_000, sharing: 'sandbox' },
        { file: 'tools/b.test.ts', durationMs: 20_000 },
        { file: 'mock-server/short.test.ts', durationMs: 2_000, sharing: 'mock-server' },
      ]),
    ).toEqual([
      'sandbox/long.test.ts',
      'sandbox/short.test.ts',
      'tools/a.test.ts',
      'mock-server/long.test.ts',
      'mock-server/short.test.ts',
      'tools/b.test.ts',
    ]);
  });
});
