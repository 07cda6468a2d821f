// The cluster-mode TaskStore: the same interface and behaviour as the lowdb store
// (task-store-behaviour.ts runs against both), on PostgreSQL through a `pg` pool.
//
// - Every node reads and writes the same rows, so any node serves any task's history.
// - Calls on one task run one at a time in call order within a node (keyed queue), as in the
//   file store; across nodes, an append locks its task row (SELECT ... FOR UPDATE), so message
//   order (`seq`) is commit order and idempotency by message id holds cluster-wide.
// - A resolved write is committed; a failed one rolls back and rejects with INTERNAL.
import type pg from 'pg';
import { createInFlight } from './in-flight.ts';
import { createKeyedQueue } from './keyed-queue.ts';
import { migrate } from './postgres-migrations.ts';
import { internalError, TaskStoreError } from './task-store-error.ts';
import type { Clock, InitReport, Message, Task, TaskStore, TaskSummary } from './task-types.ts';
import { encodeCursor, parsePageQuery } from './task-page.ts';
import { checkTaskId, parseCreateInput, parseMessage, parsePatch, sameMessage } from './task-validation.ts';
import { inTransaction } from './postgres-transaction.ts';

export interface PostgresTaskStoreOptions {
  pool: pg.Pool;
  clock: Clock;
  /** End the pool on close(); default false (the caller owns it). */
  ownsPool?: boolean;
  /** Apply migrations in init(); default true. */
  migrate?: boolean;
}

interface TaskRow {
  task_id: string;
  title: string;
  status: Task['status'];
  created_at: string;
  updated_at: string;
  selected_client_id: string | null;
  outcome: TaskSummary['outcome'] | null;
  usage: Task['usage'];
  machine_snapshot: Task['machineSnapshot'] | null;
}

interface MessageRow {
  id: string;
  role: Message['role'];
  content: string;
  ts: string;
  meta: Message['meta'] | null;
}

const TASK_COLUMNS =
  'task_id, title, status, created_at, updated_at, selected_client_id, outcome, usage, machine_snapshot';

function summaryOf(row: Omit<TaskRow, 'usage' | 'machine_snapshot'>): TaskSummary {
  const summary: TaskSummary = {
    taskId: row.task_id,
    title: row.title,
    status: row.status,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  if (row.selected_client_id !== null) summary.selectedClientId = row.selected_client_id;
  if (row.outcome !== null && row.outcome !== undefined) summary.outcome = row.outcome;
  return summary;
}

function taskOf(row: TaskRow): Task {
  const task: Task = { ...summaryOf(row), usage: row.usage };
  if (row.machine_snapshot !== null) task.machineSnapshot = row.machine_snapshot;
  return task;
}

function messageOf(row: MessageRow): Message {
  const message: Message = { id: row.id, role: row.role, content: row.content, timestamp: Number(row.ts) };
  if (row.meta !== null) message.meta = row.meta;
  return message;
}

/** `json` parameters go as text: `pg` would send a JS array as a PostgreSQL array. */
const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

const notFound = (taskId: string) =>
  new TaskStoreError('NOT_FOUND', `task ${taskId} not found`, { context: { taskId } });

export function createPostgresTaskStore({
  pool,
  clock,
  ownsPool = false,
  migrate: shouldMigrate = true,
}: PostgresTaskStoreOptions): TaskStore {
  const queue = createKeyedQueue();
  const inFlight = createInFlight();
  const track = inFlight.track;
  let ready: Promise<InitReport> | undefined;
  let closed = false;

  function init(): Promise<InitReport> {
    if (closed) return Promise.reject(new TaskStoreError('INTERNAL', 'task store is closed'));
    ready ??= (async () => {
      try {
        if (shouldMigrate) await migrate(pool);
        const count = await pool.query<{ n: string }>('SELECT count(*) AS n FROM mimo_tasks');
        return { taskCount: Number(count.rows[0]!.n), skipped: [] };
      } catch (error) {
        throw internalError('reach its database', undefined, error);
      }
    })().catch((error: unknown) => {
      ready = undefined; // a later call retries, e.g. once the database is back
      throw error;
    });
    return ready;
  }

  /** Runs `job` in the task's queue once the schema is ready; a database error becomes INTERNAL. */
  function onTask<T>(taskId: string, action: string, job: () => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new TaskStoreError('INTERNAL', 'task store is closed'));
    const idError = checkTaskId(taskId);
    if (idError) return Promise.reject(idError);
    return track(
      init().then(() =>
        queue.run(taskId, async () => {
          try {
            return await job();
          } catch (error) {
            throw error instanceof TaskStoreError ? error : internalError(action, taskId, error);
          }
        }),
      ),
    );
  }

  async function readTask(taskId: string): Promise<Task | undefined> {
    const result = await pool.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM mimo_tasks WHERE task_id = $1`, [taskId]);
    return result.rows[0] ? taskOf(result.rows[0]) : undefined;
  }

  return {
    init,

    async createTaskIfAbsent(raw) {
      const input = parseCreateInput(raw);
      if (input instanceof TaskStoreError) throw input;
      return onTask(input.taskId, 'create the task', async () => {
        const now = clock.now();
        const inserted = await pool.query<TaskRow>(
          `INSERT INTO mimo_tasks (task_id, title, status, created_at, updated_at, selected_client_id, usage)
           VALUES ($1, $2, 'created', $3, $3, $4, $5) ON CONFLICT (task_id) DO NOTHING RETURNING ${TASK_COLUMNS}`,
          [
            input.taskId,
            input.title,
            now,
            input.selectedClientId ?? null,
            json({ promptTokens: 0, completionTokens: 0, totalTokens: 0 }),
          ],
        );
        if (inserted.rows[0]) return { task: taskOf(inserted.rows[0]), created: true };
        const existing = await readTask(input.taskId);
        if (!existing)
          throw internalError('create the task', input.taskId, new Error('the task vanished during its creation'));
        return { task: existing, created: false };
      });
    },

    getTask(taskId) {
      return onTask(taskId, 'read the task', () => readTask(taskId));
    },

    async listTasks() {
      if (closed) throw new TaskStoreError('INTERNAL', 'task store is closed');
      await init();
      return track(
        pool
          .query<TaskRow>(
            'SELECT task_id, title, status, created_at, updated_at, selected_client_id, outcome FROM mimo_tasks ORDER BY updated_at DESC, created_at DESC, task_id COLLATE "C"',
          )
          .then((result) => result.rows.map(summaryOf))
          .catch((error: unknown) => {
            throw internalError('list the tasks', undefined, error);
          }),
      );
    },

    // Keyset pagination in the order of listTasks (updated_at DESC, created_at DESC, task_id ASC).
    async listTaskPage(query) {
      if (closed) throw new TaskStoreError('INTERNAL', 'task store is closed');
      const parsed = parsePageQuery(query);
      if (parsed instanceof TaskStoreError) throw parsed;
      await init();
      const after = parsed.after;
      const where = after
        ? 'WHERE updated_at < $2 OR (updated_at = $2 AND (created_at < $3 OR (created_at = $3 AND task_id COLLATE "C" > $4 COLLATE "C")))'
        : '';
      const params: unknown[] = after
        ? [parsed.limit + 1, after.updatedAt, after.createdAt, after.taskId]
        : [parsed.limit + 1];
      return track(
        pool
          .query<TaskRow>(
            `SELECT task_id, title, status, created_at, updated_at, selected_client_id, outcome FROM mimo_tasks ${where} ORDER BY updated_at DESC, created_at DESC, task_id COLLATE "C" LIMIT $1`,
            params,
          )
          .then((result) => {
            const rows = result.rows.map(summaryOf);
            const tasks = rows.slice(0, parsed.limit);
            return { tasks, nextCursor: rows.length > parsed.limit ? encodeCursor(tasks[tasks.length - 1]!) : null };
          })
          .catch((error: unknown) => {
            throw internalError('list the tasks', undefined, error);
          }),
      );
    },

    async updateTask(taskId, rawPatch) {
      const idError = checkTaskId(taskId);
      if (idError) throw idError;
      const patch = parsePatch(rawPatch);
      if (patch instanceof TaskStoreError) throw patch;
      return onTask(taskId, 'update the task', async () => {
        const sets = ['updated_at = $2'];
        const values: unknown[] = [taskId, clock.now()];
        const set = (column: string, value: unknown) => {
          values.push(value);
          sets.push(`${column} = $${values.length}`);
        };
        if (patch.status !== undefined) set('status', patch.status);
        if (patch.title !== undefined) set('title', patch.title);
        if (patch.usage !== undefined) set('usage', json(patch.usage));
        if (patch.selectedClientId !== undefined) set('selected_client_id', patch.selectedClientId);
        if (patch.machineSnapshot !== undefined)
          set('machine_snapshot', patch.machineSnapshot === null ? null : json(patch.machineSnapshot));
        // An outcome is kept only while the status is `error` (as in the file store).
        const param = (value: unknown) => (values.push(value), `$${values.length}::text`);
        const status = patch.status === undefined ? 'status' : param(patch.status);
        const outcome = patch.outcome === undefined ? 'outcome' : param(patch.outcome);
        sets.push(`outcome = CASE WHEN ${status} = 'error' THEN ${outcome} END`);
        const result = await pool.query<TaskRow>(
          `UPDATE mimo_tasks SET ${sets.join(', ')} WHERE task_id = $1 RETURNING ${TASK_COLUMNS}`,
          values,
        );
        if (!result.rows[0]) throw notFound(taskId);
        return taskOf(result.rows[0]);
      });
    },

    async appendMessage(taskId, raw) {
      const idError = checkTaskId(taskId);
      if (idError) throw idError;
      const message = parseMessage(raw);
      if (message instanceof TaskStoreError) throw message;
      return onTask(taskId, 'append the message', () =>
        inTransaction(pool, async (client) => {
          const locked = await client.query('SELECT 1 FROM mimo_tasks WHERE task_id = $1 FOR UPDATE', [taskId]);
          if (locked.rowCount === 0) throw notFound(taskId);
          const existing = await client.query<MessageRow>(
            'SELECT id, role, content, ts, meta FROM mimo_messages WHERE task_id = $1 AND id = $2',
            [taskId, message.id],
          );
          if (existing.rows[0]) {
            const stored = messageOf(existing.rows[0]);
            if (sameMessage(stored, message)) return { message: stored, appended: false };
            throw new TaskStoreError('CONFLICT', `message ${message.id} already exists with different content`, {
              context: { taskId, messageId: message.id },
            });
          }
          await client.query(
            'INSERT INTO mimo_messages (task_id, id, role, content, ts, meta) VALUES ($1, $2, $3, $4, $5, $6)',
            [taskId, message.id, message.role, message.content, message.timestamp, json(message.meta)],
          );
          await client.query('UPDATE mimo_tasks SET updated_at = $2 WHERE task_id = $1', [taskId, clock.now()]);
          return { message: structuredClone(message), appended: true };
        }),
      );
    },

    listMessages(taskId) {
      return onTask(taskId, 'read the messages', async () => {
        const result = await pool.query<MessageRow & { known: boolean }>(
          `SELECT m.id, m.role, m.content, m.ts, m.meta FROM mimo_messages m WHERE m.task_id = $1 ORDER BY m.seq`,
          [taskId],
        );
        if (
          result.rows.length === 0 &&
          !(await pool.query('SELECT 1 FROM mimo_tasks WHERE task_id = $1', [taskId])).rowCount
        )
          throw notFound(taskId);
        return result.rows.map(messageOf);
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      await ready?.catch(() => undefined);
      await inFlight.drain();
      await queue.drain();
      if (ownsPool) await pool.end();
    },
  };
}
