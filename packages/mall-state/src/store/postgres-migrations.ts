// The schema of the sandbox's PostgreSQL database, migrated at start from the package's numbered
// SQL files, each in its own transaction under an advisory lock: replicas starting together apply
// each migration once, and each returns only once every migration is in, so none reads a half-made
// schema. What the tables mean is in the SQL files.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PostgresSession } from './postgres-session.js';

/** The migrations shipped with the package (`packages/mall-state/migrations`). */
const dir = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** The advisory lock key of the migrations (any constant; the same in every replica). */
const migrationLock = 7_302_214_022;

/**
 * Applies the migrations the database has not seen yet, in name order, each under the lock.
 * @returns the names of the migrations this call applied (none when the schema was current).
 */
export async function migrate(session: PostgresSession): Promise<string[]> {
  const { query } = session;
  const files = (await readdir(dir)).filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name)).sort();
  const applied: string[] = [];
  for (const file of files) {
    const sql = await readFile(join(dir, file), 'utf8');
    const done = await session.transaction(async (client) => {
      await query(client, 'SELECT pg_advisory_xact_lock($1)', [migrationLock]);
      await query(
        client,
        'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      if ((await query(client, 'SELECT 1 FROM schema_migrations WHERE name = $1', [file])).length > 0)
        return false;
      // Not through `query`: a migration that fails is a fault of the package, not an outage.
      await client.query(sql).catch((error: unknown) => {
        throw new Error(
          `sandbox migration ${file} failed: ${error instanceof Error ? error.message : error}`,
        );
      });
      await query(client, 'INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      return true;
    });
    if (done) applied.push(file);
  }
  return applied;
}
