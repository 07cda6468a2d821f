// Cursor pagination of the task list (GET /api/task/list?limit=&cursor=): most recently updated
// first, the order of `listTasks`. The cursor names the last row of the previous page by its sort
// key (updatedAt, createdAt, taskId), so a page does not shift when tasks are added or updated
// between requests (an updated task moves to the front and is not repeated further down).
import { TaskStoreError } from './task-store-error.ts';
import type { TaskSummary } from './task-types.ts';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 500;

export interface TaskPageQuery {
  /** 1..500 (default 50). */
  limit?: number;
  /** `nextCursor` of the previous page; absent for the first page. */
  cursor?: string;
}

export interface TaskPage {
  tasks: TaskSummary[];
  /** null on the last page. */
  nextCursor: string | null;
}

export interface CursorKey {
  updatedAt: number;
  createdAt: number;
  taskId: string;
}

export function byRecency(a: CursorKey, b: CursorKey): number {
  return (
    b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0)
  );
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify([key.updatedAt, key.createdAt, key.taskId])).toString('base64url');
}

const badRequest = (field: string, message: string) =>
  new TaskStoreError('BAD_REQUEST', message, { fieldErrors: [{ field, message }] });

export function decodeCursor(cursor: string): CursorKey | TaskStoreError {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (
    Array.isArray(value) &&
    value.length === 3 &&
    Number.isFinite(value[0]) &&
    Number.isFinite(value[1]) &&
    typeof value[2] === 'string'
  ) {
    return { updatedAt: value[0] as number, createdAt: value[1] as number, taskId: value[2] as string };
  }
  return badRequest('cursor', 'cursor is not a nextCursor this server returned');
}

/** The query checked: a limit in 1..500 and a decodable cursor, or BAD_REQUEST. */
export function parsePageQuery(query: TaskPageQuery): { limit: number; after: CursorKey | null } | TaskStoreError {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    return badRequest('limit', `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
  if (query.cursor === undefined) return { limit, after: null };
  const after = decodeCursor(query.cursor);
  return after instanceof TaskStoreError ? after : { limit, after };
}

/**
 * The page after `after` among `all`, in O(n log limit): one pass keeping the best `limit + 1`
 * rows (the extra one says whether there is a next page) instead of sorting every task.
 */
export function pageOf(all: Iterable<TaskSummary>, limit: number, after: CursorKey | null): TaskPage {
  const keep = limit + 1;
  const best: TaskSummary[] = [];
  for (const summary of all) {
    if (after && byRecency(summary, after) <= 0) continue;
    if (best.length === keep && byRecency(summary, best[keep - 1]!) >= 0) continue;
    // Binary insertion into the sorted window.
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byRecency(best[mid]!, summary) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, summary);
    if (best.length > keep) best.pop();
  }
  const more = best.length > limit;
  const tasks = best.slice(0, limit).map((s) => ({ ...s }));
  return { tasks, nextCursor: more ? encodeCursor(tasks[tasks.length - 1]!) : null };
}
