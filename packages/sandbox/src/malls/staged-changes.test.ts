// Resets, fixtures and restores never hold the process: they run in time slices (a timer set
// before a large load fires before it ends), the mall answers from its old records until the new
// ones are swapped in, a record refused late in a large fixture leaves the mall as it was (in
// memory and in a data directory, where no staged row is left behind), changes to one mall run one
// at a time in the order asked, and an API write during a fixture load refuses the load (a conflict).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStorage } from '@mall-api/mall-state';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxCall, SandboxOutcome } from '../protocol.js';
import { createSandboxMalls, type SandboxMalls, type SandboxMallsOptions } from './sandbox-malls.js';

const opened: SandboxMalls[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const malls of opened.splice(0)) await malls.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
/** Opens sandbox malls, over the SQLite database of `dataDir` when given (else memory). */
const open = async ({ dataDir, ...options }: SandboxMallsOptions & { dataDir?: string } = {}) => {
  const storage = dataDir === undefined ? {} : { storage: await openStorage({ dataDir }) };
  const malls = await createSandboxMalls({ newMall: 'empty', ...storage, ...options });
  opened.push(malls);
  return malls;
};
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-staged-'));
  dirs.push(dir);
  return dir;
};

const admin = (operationId: string, mallId: string, body?: unknown): SandboxCall => ({
  api: 'admin',
  operationId,
  path: {},
  query: {},
  body,
  mallId,
});
const answered = (result: SandboxOutcome) => {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result.body as Record<string, unknown>;
};
const categoryCount = async (malls: SandboxMalls, mallId: string) =>
  answered(await malls.handle(admin('countCategories', mallId))).count;
const addCategory = async (malls: SandboxMalls, mallId: string, name: string) =>
  answered(await malls.handle(admin('createCategory', mallId, { request: { category_name: name } })));
const categories = (count: number, prefix = 'Shelf') =>
  Array.from({ length: count }, (_, i) => ({ category_name: `${prefix} ${i}` }));

describe('a change to a mall', () => {
  it('lets a timer set before a large fixture load fire before the load ends', async () => {
    const malls = await open();
    let loaded = false;
    let firedWhileLoading: boolean | undefined;
    setTimeout(() => {
      firedWhileLoading = !loaded;
    }, 0);
    const outcome = await malls.loadFixture('big', { categories: categories(20_000) });
    loaded = true;
    expect(outcome).toMatchObject({ ok: true, counts: { categories: 20_000 } });
    expect(firedWhileLoading).toBe(true);
  });

  it('answers API reads from the old records until the new ones are swapped in', async () => {
    const malls = await open();
    await addCategory(malls, 'm', 'Before');
    const seen = new Set<unknown>();
    let done = false;
    const loading = malls.loadFixture('m', { categories: categories(20_000) }).finally(() => {
      done = true;
    });
    while (!done) {
      seen.add(await categoryCount(malls, 'm'));
      await sleep(1);
    }
    expect(await loading).toMatchObject({ ok: true, counts: { categories: 20_001 } });
    expect(seen).toEqual(new Set([1]));
    expect(await categoryCount(malls, 'm')).toBe(20_001);
  });

  it('runs changes to one mall one at a time, in the order asked', async () => {
    const malls = await open();
    const first = malls.loadFixture('m', { categories: categories(10_000) });
    const second = malls.reset('m', 'empty');
    const third = malls.loadFixture('m', { categories: categories(2, 'Last') });
    expect(await first).toMatchObject({ ok: true, counts: { categories: 10_000 } });
    expect(await second).toMatchObject({ ok: true, counts: { categories: 0 } });
    expect(await third).toMatchObject({ ok: true, counts: { categories: 2 } });
    expect(await categoryCount(malls, 'm')).toBe(2);
  });

  it('refuses a fixture load met by an API write to the mall as a conflict, loading nothing', async () => {
    const malls = await open();
    let done = false;
    const loading = malls.loadFixture('m', { categories: categories(20_000) }).finally(() => {
      done = true;
    });
    let written = 0;
    while (!done) {
      await addCategory(malls, 'm', `Written ${written}`);
      written += 1;
      await sleep(2);
    }
    const outcome = await loading;
    expect(outcome).toMatchObject({ ok: false, reason: 'conflict', violations: [{ name: 'mall' }] });
    expect(await categoryCount(malls, 'm')).toBe(written);
  });

  it('restores a large snapshot in slices, the timers running meanwhile', async () => {
    const malls = await open();
    await malls.loadFixture('source', { categories: categories(20_000) });
    const snapshot = JSON.parse(JSON.stringify(await malls.snapshot('source')));
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 0);
    const outcome = await malls.restore('copy', snapshot);
    clearInterval(timer);
    expect(outcome).toMatchObject({ ok: true, counts: { categories: 20_000 } });
    expect(ticks).toBeGreaterThan(1);
    expect(await malls.snapshot('copy')).toEqual(await malls.snapshot('source'));
  });
});

describe.each<[string, () => { dataDir?: string }]>([
  ['memory', () => ({})],
  ['sqlite', () => ({ dataDir: tempDir() })],
])('a refused change in the %s store', (_name, storeOf) => {
  it('leaves the mall as it was when a record late in a large fixture is refused', async () => {
    const options = storeOf();
    const malls = await open(options);
    await addCategory(malls, 'm', 'Kept');
    const before = JSON.stringify(await malls.snapshot('m'));
    const refused = await malls.loadFixture('m', {
      categories: [
        ...categories(15_000),
        { category_name: 'Orphan', parent_category_no: { $ref: 'nowhere' } },
      ],
    });
    expect(refused).toMatchObject({ ok: false, violations: [{ name: 'categories/15000.$ref' }] });
    expect(JSON.stringify(await malls.snapshot('m'))).toBe(before);
    const schema = await malls.loadFixture('m', {
      categories: [...categories(15_000), { category_name: 42 }],
    });
    expect(schema).toMatchObject({ ok: false, violations: [{ name: 'categories/15000.category_name' }] });
    expect(JSON.stringify(await malls.snapshot('m'))).toBe(before);
    if (!('dataDir' in options)) return;
    // A restart finds the mall as it was: no row of the refused loads was kept.
    await malls.close();
    opened.splice(opened.indexOf(malls), 1);
    const reopened = await open(options);
    expect(await reopened.mallIds()).toEqual(['m']);
    expect(JSON.stringify(await reopened.snapshot('m'))).toBe(before);
  });
});

describe('a data directory', () => {
  it('keeps the swapped-in records of a reset, a fixture and a restore across a restart', async () => {
    const options = { dataDir: tempDir() };
    const malls = await open(options);
    await addCategory(malls, 'a', 'Gone after the reset');
    await malls.reset('a', 'empty');
    await malls.loadFixture('a', { categories: categories(3) });
    await addCategory(malls, 'a', 'Written after the load');
    const snapshot = await malls.snapshot('a');
    await malls.restore('b', JSON.parse(JSON.stringify(snapshot)));
    await malls.close();
    opened.splice(opened.indexOf(malls), 1);
    const reopened = await open(options);
    expect(await reopened.mallIds()).toEqual(['a', 'b']);
    expect(await reopened.snapshot('a')).toEqual(snapshot);
    expect(await reopened.snapshot('b')).toEqual(snapshot);
    expect(await categoryCount(reopened, 'a')).toBe(4);
  });
});
