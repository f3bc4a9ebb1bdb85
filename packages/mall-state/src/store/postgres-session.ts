// The sandbox's connection pool to PostgreSQL and the one way its statements run: a statement that
// fails (the database cannot be reached or refused it) is a StoreUnavailableError, the outage is
// logged once when it starts and once when it ends, and the pool reconnects by itself. `pg` is
// loaded only here, when a PostgreSQL URL is given. Not here: what the statements are.
import type pg from 'pg';
import { StoreUnavailableError } from '../malls/store-unavailable.js';
import { loadPeer } from '../support/optional-peer.js';

/** A pool and how statements run on it (or on one of its clients). */
export interface PostgresSession {
  readonly pool: pg.Pool;
  /** Runs one statement; its rows, or a StoreUnavailableError. */
  query<Row extends pg.QueryResultRow>(
    on: pg.Pool | pg.PoolClient,
    text: string,
    values?: unknown[],
  ): Promise<Row[]>;
  /** Runs `work` in a transaction on one client and commits; a failure rolls back and is rethrown. */
  transaction<R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R>;
  /** The StoreUnavailableError of `error`, logging the outage if it is a new one. */
  failed(error: unknown): StoreUnavailableError;
  /** Whether an outage is under way (a statement failed and none has succeeded since). */
  down(): boolean;
}

/** Most connections a replica opens at once: calls on one mall take turns, so this bounds the malls written at once. */
const poolSize = 10;

/** A pool on the database at `url` (no connection is made yet); outages are reported to `log`. */
export async function openPostgresSession(
  url: string,
  log: (message: string) => void,
): Promise<PostgresSession> {
  const { Pool } = await loadPeer(
    async () => (await import('pg')).default,
    'pg',
    'a PostgreSQL sandbox store',
  );
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 3000,
    query_timeout: 10_000,
  });
  // An idle connection the server closed: the pool drops it; the next call reports the outage.
  pool.on('error', () => {});
  let down = false;
  const failed = (error: unknown): StoreUnavailableError => {
    if (error instanceof StoreUnavailableError) return error;
    const cause = error instanceof Error ? error.message : String(error);
    if (!down) log(`sandbox store: PostgreSQL is unavailable (${cause}); calls are refused until it is back`);
    down = true;
    return new StoreUnavailableError(`the sandbox's PostgreSQL store is unavailable: ${cause}`, {
      cause: error,
    });
  };
  const query = async <Row extends pg.QueryResultRow>(
    on: pg.Pool | pg.PoolClient,
    text: string,
    values: unknown[] = [],
  ): Promise<Row[]> => {
    try {
      const result = await on.query<Row>(text, values);
      if (down) log('sandbox store: PostgreSQL is back');
      down = false;
      return result.rows;
    } catch (error) {
      throw failed(error);
    }
  };
  return {
    pool,
    failed,
    query,
    down: () => down,
    async transaction<R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw failed(error);
      }
      // A client whose rollback failed or whose connection broke is not given back to the pool.
      let broken: Error | undefined;
      try {
        await query(client, 'BEGIN');
        const result = await work(client);
        await query(client, 'COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        if (error instanceof StoreUnavailableError) broken ??= error;
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}
