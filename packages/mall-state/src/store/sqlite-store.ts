// The sandbox malls on disk: one SQLite database (`<dataDir>/sandbox.sqlite`, WAL mode) with one row
// per record of every mall, the rows local-malls.ts writes its memory stores through to inside the
// same transaction, so a refused write is rolled back in both and a restart finds every committed
// record. `better-sqlite3` loads only here; the directory is locked to one process (data-dir-lock.ts).
// A mall's rows are one row set: its own id at first, after a reset, fixture or restore a generation
// (`<mall>@<uuid>`, never a mall id) that `mall_rowsets` points the mall at. The next generation is
// written beside the current one, swapped in by updating that pointer (one short transaction), and
// the old rows are then deleted in chunks; row sets no mall points at (a process stopped mid-way)
// are deleted on open.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { nextTurn } from '../support/next-turn.js';
import { loadPeer } from '../support/optional-peer.js';
import { lockDataDir } from './data-dir-lock.js';
import { type LocalRows, localMalls } from './local-malls.js';
import type { MallStorage } from './mall-storage.js';
import type { StoredRecord, StoreJournal, StoreTable } from './store.js';

/** Rows deleted per statement when an old row set goes (one chunk between turns of the event loop). */
const rowsPerDelete = 2_000;

type Row = { tbl: StoreTable; key: string; value: string };

/** Opens (creating if needed) the sandbox database in `dataDir` and locks the directory. */
export async function openSqliteMalls(dataDir: string): Promise<MallStorage> {
  const Database = await loadPeer(
    async () => (await import('better-sqlite3')).default,
    'better-sqlite3',
    'a sandbox data directory',
  );
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new Database(join(dataDir, 'sandbox.sqlite'));
    return localMalls(rowsOf(db, unlock));
  } catch (error) {
    db?.close();
    unlock();
    throw error;
  }
}

/** The rows of `db` the memory stores write through to; `close` closes it and unlocks. */
function rowsOf(db: BetterSqlite3.Database, unlock: () => void): LocalRows {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS mall_records (mall TEXT NOT NULL, tbl TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (mall, tbl, key))',
  );
  db.exec('CREATE TABLE IF NOT EXISTS mall_rowsets (mall TEXT PRIMARY KEY, rowset TEXT NOT NULL)');
  // Row sets no mall points at: generations never swapped in, or old ones not yet deleted.
  db.exec(`DELETE FROM mall_records WHERE mall NOT IN (SELECT rowset FROM mall_rowsets)
    AND (instr(mall, '@') > 0 OR mall IN (SELECT mall FROM mall_rowsets))`);
  const upsert = db.prepare(
    'INSERT INTO mall_records (mall, tbl, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (mall, tbl, key) DO UPDATE SET value = excluded.value',
  );
  const remove = db.prepare('DELETE FROM mall_records WHERE mall = ? AND tbl = ? AND key = ?');
  const rowsIn = db.prepare('SELECT tbl, key, value FROM mall_records WHERE mall = ? ORDER BY rowid');
  const malls = db.prepare(
    "SELECT mall FROM mall_rowsets UNION SELECT DISTINCT mall FROM mall_records WHERE instr(mall, '@') = 0 ORDER BY mall",
  );
  const rowsetOf = db.prepare('SELECT rowset FROM mall_rowsets WHERE mall = ?').pluck();
  const point = db.prepare(
    'INSERT INTO mall_rowsets (mall, rowset) VALUES (?, ?) ON CONFLICT (mall) DO UPDATE SET rowset = excluded.rowset',
  );
  const forget = db.prepare('DELETE FROM mall_rowsets WHERE mall = ?');
  const removeRowset = db.prepare('DELETE FROM mall_records WHERE mall = ?');
  const removeSome = db.prepare(
    'DELETE FROM mall_records WHERE rowid IN (SELECT rowid FROM mall_records WHERE mall = ? LIMIT ?)',
  );
  const current = (mallId: string) => (rowsetOf.get(mallId) as string | undefined) ?? mallId;
  /** The journal writing a store through to the rows of `rowset`. */
  const journalOf = (rowset: string): StoreJournal => ({
    begin: () => db.exec('BEGIN IMMEDIATE'),
    put: (table, key, value) => void upsert.run(rowset, table, key, JSON.stringify(value)),
    delete: (table, key) => void remove.run(rowset, table, key),
    commit: () => db.exec('COMMIT'),
    rollback: () => {
      if (db.inTransaction) db.exec('ROLLBACK');
    },
    close: () => {},
  });
  /** Deletes the rows of `rowset` a chunk at a time, letting the event loop run between chunks. */
  const deleteRowset = async (rowset: string) => {
    while (db.open && removeSome.run(rowset, rowsPerDelete).changes === rowsPerDelete) await nextTurn();
  };
  return {
    malls: () => malls.pluck().all() as string[],
    records: (mallId) =>
      (rowsIn.all(current(mallId)) as Row[]).map((row): [StoreTable, string, StoredRecord] => [
        row.tbl,
        row.key,
        JSON.parse(row.value) as StoredRecord,
      ]),
    journal: (mallId) => journalOf(current(mallId)),
    stage(mallId) {
      const rowset = `${mallId}@${randomUUID()}`;
      return {
        journal: journalOf(rowset),
        swap() {
          const old = current(mallId);
          point.run(mallId, rowset);
          return deleteRowset(old);
        },
        discard: () => deleteRowset(rowset),
      };
    },
    drop(mallId) {
      const rowset = current(mallId);
      db.transaction(() => {
        removeRowset.run(rowset);
        forget.run(mallId);
      })();
    },
    close: () => {
      db.close();
      unlock();
    },
  };
}
