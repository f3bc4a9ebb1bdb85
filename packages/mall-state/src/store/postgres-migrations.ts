// The schema of the sandbox's PostgreSQL database, migrated at start: the numbered SQL files of
// the package's `migrations/` directory (`0001_….sql`, …) run in name order, each once, in its own
// transaction that also records its name in `schema_migrations`. The run holds a session advisory
// lock, so replicas starting together apply each migration once and none reads a half-made schema.
// This file only applies migrations; what the tables mean is in the SQL files and postgres-malls.ts.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/** The migrations shipped with the package (`packages/mall-state/migrations`). */
const dir = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** The advisory lock key of the migration run (any constant; the same in every replica). */
const migrationLock = 7_302_214_022;

/**
 * Applies the migrations the database has not seen yet, in name order, under the migration lock.
 * @returns the names of the migrations this call applied (none when the schema was current).
 */
export async function migrate(pool: pg.Pool): Promise<string[]> {
  const files = (await readdir(dir)).filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name)).sort();
  const client = await pool.connect();
  let failed: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLock]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set(
        (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map(
          (row) => row.name,
        ),
      );
      const applied: string[] = [];
      for (const file of files.filter((name) => !done.has(name))) {
        const sql = await readFile(join(dir, file), 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(
            `sandbox migration ${file} failed: ${error instanceof Error ? error.message : error}`,
          );
        }
        applied.push(file);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [migrationLock]);
    }
  } catch (error) {
    failed = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(failed);
  }
}
