// One transaction on a pooled connection: BEGIN, the work, COMMIT; any failure (thrown by the
// work too) rolls back and is rethrown; the connection always goes back to the pool.
import type pg from 'pg';

export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const out = await work(client);
    await client.query('COMMIT');
    return out;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
