// One transaction on a pooled connection: BEGIN, the work, COMMIT; any failure (thrown by the
// work too) rolls back and is rethrown; the connection always goes back to the pool.
import type pg from 'pg';

export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection that drops between two statements emits 'error' on the checked-out client; the
  // pool listens only to idle ones, so without this a database restart would end the process.
  // The next statement fails with the same cause and is rethrown below.
  const ignore = () => undefined;
  client.on('error', ignore);
  try {
    await client.query('BEGIN');
    const out = await work(client);
    await client.query('COMMIT');
    return out;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', ignore);
    client.release();
  }
}
