// The one connection a node holds its advisory locks on, kept up across database restarts.
// - open: connect and take the node lock (refused: the node id is in use by a live node);
// - the connection drops: `onDown` at once (the caller fences), then reconnect with a capped
//   exponential backoff (250 ms doubling to 2 s); once connected the node lock is taken again and
//   `onUp(client)` re-claims the tasks before any other lock query runs;
// - the database stays away longer than `maxOutageMs`, or the node lock is held by someone else
//   after a reconnect: `onGiveUp` with the reason (fencing can no longer be proven).
// Lock queries run one at a time, in call order (`serial`); while down they wait for the reconnect.
import pg from 'pg';

export interface LockConnection {
  serial<T>(job: (client: pg.Client) => Promise<T>): Promise<T>;
  up(): boolean;
  close(): Promise<void>;
}

export interface LockConnectionOptions {
  connectionString: string;
  nodeId: string;
  /** The node lock query; must answer one row `{ ok }`. */
  lockSql: [string, unknown[]];
  maxOutageMs: number;
  onDown: () => void;
  onUp: (client: pg.Client) => Promise<void>;
  onGiveUp: (error: Error & { code: string }) => void;
  /** Backoff steps (ms); default 250 doubling to 2000. */
  backoff?: (attempt: number) => number;
}

const giveUp = (code: string, message: string) => Object.assign(new Error(message), { code });

export async function openLockConnection(options: LockConnectionOptions): Promise<LockConnection> {
  const backoff = options.backoff ?? ((n: number) => Math.min(2_000, 250 * 2 ** n));
  let closing = false;
  let client: pg.Client;
  let isUp = false;
  let ready: Promise<void> = Promise.resolve();
  let chain: Promise<unknown> = Promise.resolve();

  async function connect(): Promise<pg.Client> {
    const next = new pg.Client({
      connectionString: options.connectionString,
      application_name: `mimo-locks:${options.nodeId}`,
    });
    next.on('error', () => undefined); // 'end' follows; handled there
    await next.connect();
    const [sql, values] = options.lockSql;
    const lock = await next.query<{ ok: boolean }>(sql, values);
    if (!lock.rows[0]!.ok) {
      await next.end().catch(() => undefined);
      throw giveUp(
        'CLUSTER_NODE_ID_IN_USE',
        `node id ${options.nodeId} is already in use by a live node (set a different MIMO_NODE_ID)`,
      );
    }
    return next;
  }

  function watch(c: pg.Client): void {
    c.once('end', () => {
      if (closing || c !== client) return;
      isUp = false;
      options.onDown();
      ready = reconnect();
    });
  }

  async function reconnect(): Promise<void> {
    const started = Date.now();
    for (let attempt = 0; !closing; attempt++) {
      await new Promise((r) => setTimeout(r, backoff(attempt)));
      if (closing) return;
      try {
        const next = await connect();
        client = next;
        watch(next);
        await options.onUp(next);
        isUp = true;
        return;
      } catch (error) {
        if ((error as { code?: string }).code === 'CLUSTER_NODE_ID_IN_USE')
          return options.onGiveUp(error as Error & { code: string });
        if (Date.now() - started > options.maxOutageMs) {
          return options.onGiveUp(
            giveUp(
              'CLUSTER_DATABASE_UNREACHABLE',
              `the database stayed unreachable for more than ${options.maxOutageMs} ms (${String(error)}); this node can no longer prove which tasks it owns`,
            ),
          );
        }
      }
    }
  }

  client = await connect();
  isUp = true;
  watch(client);

  return {
    serial(job) {
      const run = async () => {
        await ready;
        if (!isUp) throw giveUp('CLUSTER_FENCED', 'the lock connection is down');
        return job(client);
      };
      const next = chain.then(run, run);
      chain = next.catch(() => undefined);
      return next;
    },
    up: () => isUp,
    async close() {
      closing = true;
      await chain;
      await client.end().catch(() => undefined);
    },
  };
}
