// A mall's drop against a first use that comes while its data is being dropped, over the memory
// stores and over a real redis-server: the check that the mall is still unused clears its journal,
// fault rules, buckets and clock in the same step, so what the new use writes after it (an entry,
// a rule, a moved clock) is still there once the drop has finished; a mall used before the check
// keeps everything.
import {
  createMallClocks,
  type MallClocks,
  type MallStateStores,
  memoryMallStores,
} from '@mall-api/mall-state';
import { openRedisState } from '@mall-api/mall-state/redis';
import type { SandboxMallsGateway } from '@mall-api/sandbox/protocol';
import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockMalls } from './mock-malls.js';

let redis: TestRedisServer;
const closing: (() => Promise<void>)[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
}, 20_000);
afterAll(async () => {
  for (const close of closing.splice(0)) await close();
  await redis?.stop();
});

let prefixes = 0;
type Hook = (mallId: string) => Promise<void>;
const implementations: [string, () => Promise<{ stores: MallStateStores; clocks: MallClocks }>][] = [
  ['memory', async () => ({ stores: memoryMallStores(), clocks: createMallClocks() })],
  [
    'redis',
    async () => {
      const state = await openRedisState({ url: redis.url, prefix: `drop${++prefixes}:`, log: () => {} });
      closing.push(state.close);
      return { stores: state.stores, clocks: createMallClocks(undefined, state.clockOffsets) };
    },
  ],
];

const entry = (path: string) => ({
  receivedAtMs: Date.parse('2026-11-23T00:00:00.000Z'),
  api: 'admin',
  method: 'GET',
  path,
  operationId: 'listCategories',
  query: new URLSearchParams(),
  body: null,
  status: 200,
  answeredBy: 'answer',
  durationMs: 1,
});

/**
 * The mock's malls over `stores`, idle after 1 s of a simulated clock, over a sandbox whose drop
 * runs `before`, asks `stillUnused`, then runs `meanwhile` before its data is gone (as a
 * PostgreSQL drop deletes the rows after the check, under the mall's lock).
 */
async function mallsDropping(
  stores: MallStateStores,
  clocks: MallClocks,
  now: () => number,
  { before = async () => {}, meanwhile = async () => {} }: Partial<Record<'before' | 'meanwhile', Hook>>,
) {
  const sandbox = {
    mallIds: async () => [],
    async drop(mallId: string, stillUnused?: () => Promise<boolean>) {
      await before(mallId);
      const unused = (await stillUnused?.()) ?? true;
      await meanwhile(mallId);
      return unused;
    },
  } as unknown as SandboxMallsGateway;
  const malls = await createMockMalls({ stores, clocks, sandbox, now, limits: { idleMs: 1_000 } });
  closing.push(async () => malls.close());
  return malls;
}

describe.each(implementations)('a mall dropped while a first use arrives (%s)', (_, open) => {
  it('keeps what the new use wrote after the check, and nothing from before it', async () => {
    const { stores, clocks } = await open();
    let now = 0;
    const malls = await mallsDropping(stores, clocks, () => now, {
      async meanwhile(mallId) {
        // The first use after the check: the mall's data is still being dropped.
        await stores.journal.record(mallId, entry('/after'));
        await stores.faults.add(mallId, { match: { method: 'DELETE' }, action: { kind: 'drop' } });
        await clocks.advance(mallId, 5_000);
      },
    });
    await malls.touch('m');
    await stores.journal.record('m', entry('/before'));
    await stores.faults.add('m', { match: { method: 'GET' }, action: { kind: 'hang' } });
    await clocks.advance('m', 60_000);
    now = 2_000;
    await malls.touch('other'); // finds `m` idle and drops it
    expect((await stores.journal.entries('m')).map((e) => e.path)).toEqual(['/after']);
    expect((await stores.faults.list('m')).map((rule) => rule.match.method)).toEqual(['DELETE']);
    await clocks.refresh('m');
    expect(clocks.offset('m')).toBe(5_000);
  });

  it('clears nothing of a mall used after it was found idle', async () => {
    const { stores, clocks } = await open();
    let now = 0;
    let used = 0;
    const malls = await mallsDropping(stores, clocks, () => now, {
      // A use between the roster finding the mall idle and the drop's check.
      before: async (mallId) => {
        used += 1;
        await malls.touch(mallId);
      },
    });
    await malls.touch('kept');
    await stores.journal.record('kept', entry('/kept'));
    await clocks.advance('kept', 60_000);
    now = 2_000;
    await malls.touch('other'); // finds `kept` idle and tries to drop it
    expect(used).toBe(1);
    expect((await stores.journal.entries('kept')).map((e) => e.path)).toEqual(['/kept']);
    await clocks.refresh('kept');
    expect(clocks.offset('kept')).toBe(60_000);
    expect(await malls.mallIds()).toEqual(['kept', 'other']);
  });
});
