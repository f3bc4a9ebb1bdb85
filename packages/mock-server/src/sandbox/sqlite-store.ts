// The sandbox store on disk: a SQLite database (`<dataDir>/sandbox.sqlite`, WAL mode) holding one
// row per record. At start every row is loaded into the memory store, which keeps serving reads;
// each write goes through to SQLite inside the same transaction, so a rejected write is rolled
// back in both places and a restart with the same data directory finds every committed record.
// The directory is locked to one process at a time (data-dir-lock.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { lockDataDir } from './data-dir-lock.js';
import { createMemoryStore, type SandboxStore, type StoredRecord, type TableName } from './store.js';

/** Opens (creating if needed) the sandbox database in `dataDir`. */
export function createSqliteStore(dataDir: string): SandboxStore {
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  let db: Database.Database | undefined;
  try {
    db = new Database(join(dataDir, 'sandbox.sqlite'));
    return openStore(db, unlock);
  } catch (error) {
    db?.close();
    unlock();
    throw error;
  }
}

/** The memory store over the rows of `db`, writing through to it; `close` closes it and unlocks. */
function openStore(db: Database.Database, unlock: () => void): SandboxStore {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS records (tbl TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (tbl, key))',
  );
  const upsert = db.prepare(
    'INSERT INTO records (tbl, key, value) VALUES (?, ?, ?) ON CONFLICT (tbl, key) DO UPDATE SET value = excluded.value',
  );
  const remove = db.prepare('DELETE FROM records WHERE tbl = ? AND key = ?');
  const rows = db.prepare('SELECT tbl, key, value FROM records ORDER BY rowid').all() as {
    tbl: TableName;
    key: string;
    value: string;
  }[];
  const initial = rows.map((row): [TableName, string, StoredRecord] => [
    row.tbl,
    row.key,
    JSON.parse(row.value) as StoredRecord,
  ]);
  return createMemoryStore(
    {
      begin: () => db.exec('BEGIN IMMEDIATE'),
      put: (table, key, value) => void upsert.run(table, key, JSON.stringify(value)),
      delete: (table, key) => void remove.run(table, key),
      commit: () => db.exec('COMMIT'),
      rollback: () => {
        if (db.inTransaction) db.exec('ROLLBACK');
      },
      close: () => {
        db.close();
        unlock();
      },
    },
    initial,
  );
}
