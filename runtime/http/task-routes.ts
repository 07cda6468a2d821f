// Seed 001 §2.1: GET /api/task/id, GET /api/task/list, GET /api/task/:taskId.
import type { Hono } from 'hono';
import { isUlid, isUuid } from '../../transport/contracts/index.ts';
import { MAX_PAGE_LIMIT, summarize, type Message } from '../store/index.ts';
import { errorResponse, okResponse } from './envelope-response.ts';
import type { HttpAppDeps, HttpEnv } from './http-types.ts';
import { onlyAllow } from './method-not-allowed.ts';

/** A history message; `toolCallId` lifted out of `meta`, which is passed on for the UI's tool steps. */
function messageOf(message: Message): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: message.id,
    role: message.role,
    content: message.content,
    timestamp: message.timestamp,
  };
  const toolCallId = message.meta?.toolCallId;
  if (typeof toolCallId === 'string') out.toolCallId = toolCallId;
  if (message.meta !== undefined) out.meta = message.meta;
  return out;
}

export function registerTaskRoutes(
  app: Hono<HttpEnv>,
  deps: Pick<HttpAppDeps, 'taskStore' | 'newTaskId' | 'damagedTasks'>,
): void {
  const { taskStore } = deps;

  app.get('/api/task/id', (c) => okResponse(c, { taskId: deps.newTaskId() }, { 'Cache-Control': 'no-store' }));
  onlyAllow(app, '/api/task/id', ['GET']);

  // `?damaged=1`: the task folders the store could not read at start (kept on disk, untouched),
  // as `[{ taskId, reason }]`, so a damaged file is reported rather than silently missing.
  // `?limit=&cursor=`: one page, `data: { tasks, nextCursor }` (nextCursor null on the last
  // page). Without either, the seed's shape: `data` is every task (kept for older callers).
  app.get('/api/task/list', async (c) => {
    if (c.req.query('damaged') === '1')
      return okResponse(c, deps.damagedTasks?.() ?? [], { 'Cache-Control': 'no-store' });
    const limitText = c.req.query('limit');
    const cursor = c.req.query('cursor');
    if (limitText === undefined && cursor === undefined)
      return okResponse(c, (await taskStore.listTasks()).map(summarize));
    if (limitText !== undefined && !/^[0-9]{1,4}$/.test(limitText)) {
      const message = `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}, got ${JSON.stringify(limitText.slice(0, 40))}`;
      return errorResponse(c, {
        code: 'BAD_REQUEST',
        message,
        details: { fieldErrors: [{ field: 'limit', message }] },
      });
    }
    const page = await taskStore.listTaskPage({
      ...(limitText !== undefined ? { limit: Number(limitText) } : {}),
      ...(cursor !== undefined ? { cursor } : {}),
    });
    return okResponse(
      c,
      { tasks: page.tasks.map(summarize), nextCursor: page.nextCursor },
      { 'Cache-Control': 'no-store' },
    );
  });
  onlyAllow(app, '/api/task/list', ['GET']);

  app.get('/api/task/:taskId', async (c) => {
    const taskId = c.req.param('taskId');
    if (!isUlid(taskId) && !isUuid(taskId)) {
      const message = `taskId must be a ULID (26 Crockford base32 chars) or a UUID, got ${JSON.stringify(taskId)}`;
      return errorResponse(c, {
        code: 'BAD_REQUEST',
        message,
        details: { fieldErrors: [{ field: 'taskId', message }] },
      });
    }
    const task = await taskStore.getTask(taskId);
    if (task === undefined)
      return errorResponse(c, { code: 'NOT_FOUND', message: `no task ${taskId}`, details: { context: { taskId } } });
    const messages = await taskStore.listMessages(taskId);
    return okResponse(c, { task: summarize(task), messages: messages.map(messageOf) });
  });
  onlyAllow(app, '/api/task/:taskId', ['GET']);
}
