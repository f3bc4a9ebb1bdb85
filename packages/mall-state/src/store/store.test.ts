// The sandbox stores: a transaction that throws leaves nothing behind (memory and SQLite), nested
// transactions belong to the outer one, sequences never hand out a number twice, the SQLite
// database finds every committed record of every mall after it is reopened, keeps malls apart, and
// is open in one place at a time.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MallStorage } from './mall-storage.js';
import { openSqliteMalls } from './sqlite-store.js';
import { createMemoryStore, type SandboxStore } from './store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-store-'));
  dirs.push(dir);
  return dir;
};

const databases: MallStorage[] = [];
afterEach(() => {
  for (const database of databases.splice(0)) database.close();
});
/** A store of mall `m1` in a new SQLite database (closed after the test). */
const sqliteStore = async () => {
  const database = await openSqliteMalls(tempDir());
  databases.push(database);
  return database.open('m1');
};

const kinds: [string, () => Promise<SandboxStore>][] = [
  ['memory', async () => createMemoryStore()],
  ['sqlite', sqliteStore],
];

describe.each(kinds)('the %s store', (_name, open) => {
  it('undoes every write of a transaction that throws', async () => {
    const store = await open();
    store.transaction(() => store.put('category', '1', { name: 'kept' }));
    expect(() =>
      store.transaction(() => {
        store.put('category', '1', { name: 'changed' });
        store.put('category', '2', { name: 'added' });
        store.nextNumber('category_no', 10);
        store.transaction(() => store.delete('category', '1'));
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(store.all('category')).toEqual([{ name: 'kept' }]);
    expect(store.transaction(() => store.nextNumber('category_no', 10))).toBe(11);
    store.close();
  });

  it('refuses a write outside a transaction', async () => {
    const store = await open();
    expect(() => store.put('product', '1', {})).toThrow(/inside a transaction/);
    store.close();
  });
});

describe('the SQLite database', () => {
  it('finds every committed record of every mall, and no rolled-back one, after reopening', async () => {
    const dir = tempDir();
    const first = await openSqliteMalls(dir);
    const [a, b] = [first.open('mall-a'), first.open('mall-b')];
    a.transaction(() => {
      a.put('product', '10', { product_no: 10 });
      a.nextNumber('product_no', 9);
    });
    b.transaction(() => b.put('product', '10', { product_no: 10, name: 'b' }));
    expect(() =>
      a.transaction(() => {
        a.put('product', '11', { product_no: 11 });
        throw new Error('no');
      }),
    ).toThrow();
    first.close();
    const second = await openSqliteMalls(dir);
    expect(await second.mallIds()).toEqual(['mall-a', 'mall-b']);
    const again = second.open('mall-a');
    expect(again.all('product')).toEqual([{ product_no: 10 }]);
    expect(second.open('mall-b').all('product')).toEqual([{ product_no: 10, name: 'b' }]);
    expect(again.transaction(() => again.nextNumber('product_no', 9))).toBe(11);
    second.close();
  });

  it('serves one sandbox per directory: a second open is refused until the first closes', async () => {
    const dir = tempDir();
    const first = await openSqliteMalls(dir);
    await expect(openSqliteMalls(dir)).rejects.toThrow(/already open in this process/);
    first.close();
    const again = await openSqliteMalls(dir);
    again.close();
  });

  it('refuses a directory another running process holds, and takes over the lock of one that died', async () => {
    const dir = tempDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(dir, 'sandbox.lock'), String(holder.pid));
      await expect(openSqliteMalls(dir)).rejects.toThrow(new RegExp(`in use by process ${holder.pid}`));
    } finally {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
    }
    const database = await openSqliteMalls(dir);
    expect(readFileSync(join(dir, 'sandbox.lock'), 'utf8')).toBe(String(process.pid));
    database.close();
    expect(existsSync(join(dir, 'sandbox.lock'))).toBe(false);
  });
});
