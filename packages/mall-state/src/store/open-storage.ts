// Opens the storage of the sandbox malls' records as a deployment chooses: this process's memory,
// a SQLite database in a data directory, or PostgreSQL shared by replicas (schema migrated first);
// drivers load only when chosen. The sandbox takes the storage over and closes it.
import { memoryStorage } from './local-malls.js';
import type { MallStorage } from './mall-storage.js';
import { openPostgresMalls, type PostgresMallsOptions } from './postgres-malls.js';
import { openSqliteMalls } from './sqlite-store.js';

/** Where the malls' records are kept. */
export type StorageChoice = 'memory' | { readonly dataDir: string } | { readonly postgres: string };

/** Options of {@link openStorage}: those of a PostgreSQL database's a deployment sets. */
export type OpenStorageOptions = Pick<PostgresMallsOptions, 'log' | 'versions'>;

/** Opens the storage chosen: memory (the default), a data directory's SQLite database, or PostgreSQL. */
export async function openStorage(
  choice: StorageChoice = 'memory',
  options: OpenStorageOptions = {},
): Promise<MallStorage> {
  if (choice === 'memory') return memoryStorage();
  if ('dataDir' in choice) return openSqliteMalls(choice.dataDir);
  return openPostgresMalls(choice.postgres, options);
}
