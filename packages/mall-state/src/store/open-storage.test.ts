// Opening the storage a deployment chooses: memory holds no malls and keeps none across opens; a
// data directory is SQLite, locked to one opener and found again after a reopen.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from './open-storage.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('openStorage', () => {
  it('opens memory by default: no malls, and nothing kept for the next open', async () => {
    const first = await openStorage();
    const store = first.open('m1');
    store.transaction(() => store.put('category', '1', { name: 'shoes' }));
    expect(await first.mallIds()).toEqual([]);
    first.close();
    expect((await openStorage('memory')).open('m1').size('category')).toBe(0);
  });

  it('opens the SQLite database of a data directory, locked while open and found again after', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'open-storage-'));
    dirs.push(dataDir);
    const first = await openStorage({ dataDir });
    expect(existsSync(join(dataDir, 'sandbox.sqlite'))).toBe(true);
    await expect(openStorage({ dataDir })).rejects.toThrow(/already open in this process/);
    const store = first.open('m1');
    store.transaction(() => store.put('category', '1', { name: 'shoes' }));
    first.close();
    const again = await openStorage({ dataDir });
    expect(await again.mallIds()).toEqual(['m1']);
    expect(again.open('m1').get('category', '1')).toEqual({ name: 'shoes' });
    again.close();
  });
});
