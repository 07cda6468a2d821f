// Riding out a database restart: which errors mean "the database is away for now" (worth a retry
// with backoff) and the retry itself, bounded. Anything else is a real error and is thrown at once.

/** PostgreSQL SQLSTATEs and socket errors of a server that restarts, shuts down or is cut off. */
const TRANSIENT_SQLSTATE = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004', '53300']);
const TRANSIENT_NODE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'EAI_AGAIN']);
const TRANSIENT_TEXT =
  /\((57P0[123]|0800[0-6]|ECONNREFUSED|ECONNRESET|EPIPE)\)|Connection terminated|connection ended|Client has encountered a connection error|timeout exceeded when trying to connect|terminating connection|the database system is (starting up|shutting down)/i;

/** The error or one of its causes (a store wraps the driver's error in its own, as `cause`). */
export function isTransientDbError(error: unknown, depth = 0): boolean {
  if (!error || depth > 4) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (TRANSIENT_SQLSTATE.has(code) || TRANSIENT_NODE.has(code))) return true;
  if (TRANSIENT_TEXT.test(String((error as Error).message ?? error))) return true;
  return isTransientDbError((error as { cause?: unknown }).cause, depth + 1);
}

export interface RetryOptions {
  /** Give up after this long (default 45 s: a 30 s outage plus the reconnect). */
  maxMs?: number;
  /** Checked before every attempt: a value here stops the retry and is thrown (e.g. the task was lost). */
  gate?: () => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export async function withDbRetry<T>(job: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const started = now();
  for (let attempt = 0; ; attempt++) {
    await options.gate?.();
    try {
      return await job();
    } catch (error) {
      if (!isTransientDbError(error) || now() - started > (options.maxMs ?? 45_000)) throw error;
      await sleep(Math.min(2_000, 100 * 2 ** attempt));
    }
  }
}

/**
 * A node that starts while the database is away (a restart, the database started after the
 * nodes) waits for it with backoff instead of exiting, up to `maxMs` (MIMO_DATABASE_OUTAGE_MAX_MS,
 * as a running node rides out an outage); past that, or on a real error, it throws.
 */
export async function waitForDatabase(
  probe: () => Promise<unknown>,
  options: RetryOptions & { log?: (entry: object) => void } = {},
): Promise<void> {
  const now = options.now ?? Date.now;
  const started = now();
  let told = false;
  await withDbRetry(async () => {
    try {
      await probe();
    } catch (error) {
      if (!told && isTransientDbError(error)) {
        told = true;
        options.log?.({ event: 'database_waiting', error: String((error as Error).message ?? error) });
      }
      throw error;
    }
  }, options);
  if (told) options.log?.({ event: 'database_reachable', waitedMs: now() - started });
}
