// The sandbox malls on disk: one SQLite database (`<dataDir>/sandbox.sqlite`, WAL mode) holding one
// row per record of every mall. On open the rows of each mall are loaded into a memory store,
// which keeps serving reads; each write goes through to SQLite inside the same transaction, so a
// refused write is rolled back in both places and a restart with the same data directory finds
// every committed record of every mall. `better-sqlite3` is loaded only here, when a data
// directory is asked for, so the memory store works without it installed. The directory is locked
// to one process at a time (data-dir-lock.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { lockDataDir } from './data-dir-lock.js';
import { createMemoryStore, type SandboxStore, type StoredRecord, type TableName } from './store.js';

/** The malls kept in one data directory. */
export interface SqliteMalls {
  /** The malls with at least one stored record. */
  mallIds(): string[];
  /** The store of a mall (created empty when the database has none of its rows); see createMemoryStore's `onChange`. */
  open(mallId: string, onChange?: (table: TableName) => void): SandboxStore;
  /** Deletes every stored record of a mall. */
  drop(mallId: string): void;
  /** Closes the database and releases the directory. */
  close(): void;
}

type Row = { mall: string; tbl: TableName; key: string; value: string };

/** Loads `better-sqlite3`, explaining how to get it when it is not installed. */
async function loadDriver(): Promise<typeof BetterSqlite3> {
  try {
    return (await import('better-sqlite3')).default;
  } catch (error) {
    throw new Error(
      `a sandbox data directory needs the optional dependency better-sqlite3 (npm install better-sqlite3): ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}

/** Opens (creating if needed) the sandbox database in `dataDir` and locks the directory. */
export async function openSqliteMalls(dataDir: string): Promise<SqliteMalls> {
  const Database = await loadDriver();
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new Database(join(dataDir, 'sandbox.sqlite'));
    return mallsOf(db, unlock);
  } catch (error) {
    db?.close();
    unlock();
    throw error;
  }
}

/** The memory stores over the rows of `db`, writing through to it; `close` closes it and unlocks. */
function mallsOf(db: BetterSqlite3.Database, unlock: () => void): SqliteMalls {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS mall_records (mall TEXT NOT NULL, tbl TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (mall, tbl, key))',
  );
  const upsert = db.prepare(
    'INSERT INTO mall_records (mall, tbl, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (mall, tbl, key) DO UPDATE SET value = excluded.value',
  );
  const remove = db.prepare('DELETE FROM mall_records WHERE mall = ? AND tbl = ? AND key = ?');
  const rowsOf = db.prepare('SELECT mall, tbl, key, value FROM mall_records WHERE mall = ? ORDER BY rowid');
  const malls = db.prepare('SELECT DISTINCT mall FROM mall_records ORDER BY mall');
  const removeMall = db.prepare('DELETE FROM mall_records WHERE mall = ?');
  return {
    mallIds: () => (malls.all() as { mall: string }[]).map((row) => row.mall),
    open(mallId, onChange) {
      const initial = (rowsOf.all(mallId) as Row[]).map((row): [TableName, string, StoredRecord] => [
        row.tbl,
        row.key,
        JSON.parse(row.value) as StoredRecord,
      ]);
      return createMemoryStore(
        {
          begin: () => db.exec('BEGIN IMMEDIATE'),
          put: (table, key, value) => void upsert.run(mallId, table, key, JSON.stringify(value)),
          delete: (table, key) => void remove.run(mallId, table, key),
          commit: () => db.exec('COMMIT'),
          rollback: () => {
            if (db.inTransaction) db.exec('ROLLBACK');
          },
          close: () => {},
        },
        initial,
        onChange,
      );
    },
    drop: (mallId) => void removeMall.run(mallId),
    close: () => {
      db.close();
      unlock();
    },
  };
}
