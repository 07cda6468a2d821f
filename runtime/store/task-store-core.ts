// The task store's logic over any `TaskFiles` (disk or memory).
//
// - An index of every task's summary lives in memory, so `listTasks` never touches the disk. On
//   disk it is an append-only log (task-index.ts) written beside each meta write, so `init()`
//   reads one file; it is rebuilt from every meta file only when missing or damaged.
// - Full tasks and their messages are loaded on demand into a bounded LRU cache.
// - All operations on one task run one at a time (keyed queue); different tasks run in parallel.
// - Copy-on-write: a change is computed on a copy, written, and only then committed to memory,
//   so a failed write rejects with INTERNAL and leaves the in-memory state as it was.
import { createInFlight } from './in-flight.ts';
import { createKeyedQueue } from './keyed-queue.ts';
import { createLruCache } from './lru-cache.ts';
import { FILE_FORMAT_VERSION } from './task-files.ts';
import type { TaskFiles, TaskMetaDoc } from './task-files.ts';
import { applyPatch, isMetaDoc, summarize } from './task-record.ts';
import { internalError, TaskStoreError } from './task-store-error.ts';
import type { Clock, InitReport, Message, Task, TaskStore, TaskSummary } from './task-types.ts';
import { compactedIndex, createIndexWriter, intentLine, isSummary, parseIndex, summaryLine } from './task-index.ts';
import { byRecency, pageOf, parsePageQuery } from './task-page.ts';
import { checkTaskId, parseCreateInput, parseMessage, parsePatch, sameMessage } from './task-validation.ts';

export interface TaskStoreCoreOptions {
  files: TaskFiles;
  clock: Clock;
  /** How many tasks (meta + messages) to keep loaded; default 500. */
  cacheSize?: number;
  /** How many meta files `init()` reads at once; default 32. */
  initConcurrency?: number;
  /**
   * Budget for loaded message lists, in approximate bytes (default 16 MiB): past it, the message
   * lists of the least recently used tasks are dropped from memory (they are read again from
   * their file when needed), so memory does not grow with conversation history.
   */
  messageCacheBytes?: number;
}

/** Rough in-memory size of a message: its text plus a fixed overhead for the object. */
function messageWeight(message: Message): number {
  return (
    200 +
    2 * (message.content.length + message.id.length) +
    (message.meta ? 2 * JSON.stringify(message.meta).length : 0)
  );
}

interface LoadedTask {
  task: Task;
  /** Loaded on first use. */
  messages?: Message[];
  messageIds?: Set<string>;
}

async function forEachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const notFound = (taskId: string) =>
  new TaskStoreError('NOT_FOUND', `task ${taskId} not found`, { context: { taskId } });

export function createTaskStoreCore({
  files,
  clock,
  cacheSize = 500,
  initConcurrency = 32,
  messageCacheBytes = 16 * 2 ** 20,
}: TaskStoreCoreOptions): TaskStore {
  const index = new Map<string, TaskSummary>();
  const cache = createLruCache<string, LoadedTask>(cacheSize);
  // Tasks whose message lists are loaded, least recently used first, with their weights.
  const loadedMessages = new Map<string, { loaded: LoadedTask; weight: number }>();
  let loadedMessageBytes = 0;

  function noteMessagesUsed(loaded: LoadedTask, added = 0): void {
    const taskId = loaded.task.taskId;
    const entry = loadedMessages.get(taskId);
    const weight =
      entry && entry.loaded === loaded
        ? entry.weight + added
        : (loaded.messages ?? []).reduce((n, m) => n + messageWeight(m), 0);
    if (entry) loadedMessageBytes -= entry.weight;
    loadedMessages.delete(taskId);
    loadedMessages.set(taskId, { loaded, weight });
    loadedMessageBytes += weight;
    for (const [otherId, other] of loadedMessages) {
      if (loadedMessageBytes <= messageCacheBytes || otherId === taskId) break;
      delete other.loaded.messages;
      delete other.loaded.messageIds;
      loadedMessages.delete(otherId);
      loadedMessageBytes -= other.weight;
    }
  }
  const queue = createKeyedQueue();
  let ready: Promise<InitReport> | undefined;
  let closed = false;
  const inFlight = createInFlight();
  const track = inFlight.track;

  // Tasks between the index intent and the summary of a meta write (kept in a compaction).
  const writing = new Set<string>();
  // Tasks whose meta.json has an older updatedAt than the index (messages appended since).
  const metaBehind = new Set<string>();
  const indexWriter = createIndexWriter(files.index, () => undefined);

  async function readMetaInto(taskIds: Iterable<string>, skipped: InitReport['skipped']): Promise<void> {
    await forEachLimit([...taskIds], initConcurrency, async (taskId) => {
      try {
        const doc = await files.meta(taskId).read();
        if (isMetaDoc(doc, taskId)) index.set(taskId, summarize(doc.task));
        else {
          index.delete(taskId);
          skipped.push({ taskId, reason: doc === null ? 'missing meta file' : 'unrecognized meta file' });
        }
      } catch (error) {
        index.delete(taskId);
        skipped.push({ taskId, reason: `unreadable meta file: ${(error as Error).message}` });
      }
    });
  }

  async function load(): Promise<InitReport> {
    index.clear();
    let ids: string[];
    let indexText: string | null;
    try {
      [ids, indexText] = await Promise.all([files.listTaskIds(), files.index.read()]);
    } catch (error) {
      throw internalError('read its data folder', undefined, error);
    }
    const skipped: InitReport['skipped'] = [];
    const parsed = indexText === null ? null : parseIndex(indexText);
    if (parsed && !('damaged' in parsed)) {
      // Fast path: the index, checked against the folders (one readdir): a folder it does not
      // know, or a task whose last meta write it did not see finish, is read from its meta file.
      const present = new Set(ids);
      const reread = new Set(parsed.pending);
      for (const [taskId, summary] of parsed.summaries)
        if (present.has(taskId) && isSummary(summary)) index.set(taskId, summary);
      for (const taskId of ids) if (!index.has(taskId)) reread.add(taskId);
      for (const taskId of reread) if (!present.has(taskId)) reread.delete(taskId);
      await readMetaInto(reread, skipped);
      for (const taskId of reread) {
        const fromMeta = index.get(taskId);
        const fromIndex = parsed.summaries.get(taskId);
        if (fromMeta && fromIndex && fromIndex.updatedAt > fromMeta.updatedAt)
          index.set(taskId, { ...fromMeta, updatedAt: fromIndex.updatedAt });
      }
      indexWriter.lines = parsed.lines;
      if (reread.size > 0 || parsed.lines > 2 * index.size + 1_000) void track(compact());
      return { taskCount: index.size, skipped };
    }
    // Slow path: no index (a store from before it) or a damaged one: read every meta file.
    await readMetaInto(ids, skipped);
    try {
      await compact();
    } catch {
      // A read-only or failing disk still serves reads; the next start scans again.
    }
    return { taskCount: index.size, skipped };
  }

  function compact(): Promise<void> {
    return indexWriter.compact(() => compactedIndex(index.values(), writing));
  }

  function init(): Promise<InitReport> {
    if (closed) return Promise.reject(new TaskStoreError('INTERNAL', 'task store is closed'));
    ready ??= load().catch((error: unknown) => {
      ready = undefined; // a later call retries, e.g. once the disk is back
      throw error;
    });
    return ready;
  }

  /** Runs `job` in the task's queue once the index is loaded; `close()` waits for it. */
  function onTask<T>(taskId: string, job: () => Promise<T>): Promise<T> {
    const idError = checkTaskId(taskId);
    if (idError) return Promise.reject(idError);
    return track(init().then(() => queue.run(taskId, job)));
  }

  async function loadTask(taskId: string): Promise<LoadedTask> {
    const cached = cache.get(taskId);
    if (cached) return cached;
    if (!index.has(taskId)) throw notFound(taskId);
    let doc: TaskMetaDoc | null;
    try {
      doc = await files.meta(taskId).read();
    } catch (error) {
      throw internalError('read the task', taskId, error);
    }
    if (!isMetaDoc(doc, taskId)) {
      index.delete(taskId); // removed or damaged behind our back
      throw notFound(taskId);
    }
    // meta.json may lag behind the index's updatedAt (appendMessage does not rewrite it).
    const indexed = index.get(taskId);
    const behind = indexed !== undefined && indexed.updatedAt > doc.task.updatedAt;
    if (behind) metaBehind.add(taskId);
    const loaded: LoadedTask = { task: behind ? { ...doc.task, updatedAt: indexed.updatedAt } : doc.task };
    cache.set(taskId, loaded);
    return loaded;
  }

  async function loadMessages(loaded: LoadedTask): Promise<{ messages: Message[]; messageIds: Set<string> }> {
    if (loaded.messages && loaded.messageIds) {
      noteMessagesUsed(loaded);
      return { messages: loaded.messages, messageIds: loaded.messageIds };
    }
    let messages: Message[];
    try {
      messages = await files.messageLog(loaded.task.taskId).read();
    } catch (error) {
      throw internalError('read the messages', loaded.task.taskId, error);
    }
    loaded.messages = messages;
    loaded.messageIds = new Set(messages.map((m) => m.id));
    const messageIds = loaded.messageIds;
    noteMessagesUsed(loaded);
    return { messages, messageIds };
  }

  function commitTask(loaded: LoadedTask, task: Task): void {
    loaded.task = task;
    const summary = summarize(task);
    index.set(task.taskId, summary);
    cache.set(task.taskId, loaded);
    // The summary line is not awaited: if it never lands, the intent before it makes the next
    // start read this task's meta file.
    writing.delete(task.taskId);
    void indexWriter.append(summaryLine(summary)).catch(() => writing.add(task.taskId));
    if (indexWriter.lines > 2 * index.size + 1_000) void track(compact());
  }

  /** Writes the task's meta file, after an index intent (task-index.ts) is on disk. */
  async function writeMeta(task: Task, action: string): Promise<void> {
    try {
      writing.add(task.taskId);
      await indexWriter.append(intentLine(task.taskId));
      await files.meta(task.taskId).write({ version: FILE_FORMAT_VERSION, task });
      metaBehind.delete(task.taskId);
    } catch (error) {
      throw internalError(action, task.taskId, error);
    }
  }

  return {
    init,

    async createTaskIfAbsent(raw) {
      const input = parseCreateInput(raw);
      if (input instanceof TaskStoreError) throw input;
      return onTask(input.taskId, async () => {
        if (index.has(input.taskId))
          return { task: structuredClone((await loadTask(input.taskId)).task), created: false };
        const now = clock.now();
        const task: Task = {
          taskId: input.taskId,
          title: input.title,
          status: 'created',
          createdAt: now,
          updatedAt: now,
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        };
        if (input.selectedClientId !== undefined) task.selectedClientId = input.selectedClientId;
        try {
          await files.prepareTask(task.taskId);
        } catch (error) {
          throw internalError('create the task', task.taskId, error);
        }
        await writeMeta(task, 'create the task');
        commitTask({ task }, task);
        return { task: structuredClone(task), created: true };
      });
    },

    async getTask(taskId) {
      return onTask(taskId, async () =>
        index.has(taskId) ? structuredClone((await loadTask(taskId)).task) : undefined,
      );
    },

    async listTasks() {
      if (closed) throw new TaskStoreError('INTERNAL', 'task store is closed');
      await init();
      return [...index.values()].sort(byRecency).map((summary) => ({ ...summary }));
    },

    async listTaskPage(query) {
      if (closed) throw new TaskStoreError('INTERNAL', 'task store is closed');
      const parsed = parsePageQuery(query);
      if (parsed instanceof TaskStoreError) throw parsed;
      await init();
      return pageOf(index.values(), parsed.limit, parsed.after);
    },

    async updateTask(taskId, rawPatch) {
      const idError = checkTaskId(taskId);
      if (idError) throw idError;
      const patch = parsePatch(rawPatch);
      if (patch instanceof TaskStoreError) throw patch;
      return onTask(taskId, async () => {
        const loaded = await loadTask(taskId);
        const next = applyPatch(loaded.task, patch, clock.now());
        const finished = next.status !== loaded.task.status && (next.status === 'completed' || next.status === 'error');
        await writeMeta(next, 'update the task');
        commitTask(loaded, next);
        // A finished task lets go of its log's append handle (a follow-up message reopens it).
        if (finished && files.releaseTask) void files.releaseTask(taskId).catch(() => undefined);
        return structuredClone(next);
      });
    },

    async appendMessage(taskId, raw) {
      const idError = checkTaskId(taskId);
      if (idError) throw idError;
      const message = parseMessage(raw);
      if (message instanceof TaskStoreError) throw message;
      return onTask(taskId, async () => {
        const loaded = await loadTask(taskId);
        const { messages, messageIds } = await loadMessages(loaded);
        if (messageIds.has(message.id)) {
          const existing = messages.find((m) => m.id === message.id)!;
          if (sameMessage(existing, message)) return { message: structuredClone(existing), appended: false };
          throw new TaskStoreError('CONFLICT', `message ${message.id} already exists with different content`, {
            context: { taskId, messageId: message.id },
          });
        }
        // The log line is the only write awaited: the new updatedAt goes to the index (a summary
        // line, batched with other tasks') and meta.json catches up on the task's next update or
        // at close(), instead of being rewritten for every message.
        try {
          await files.messageLog(taskId).append(message);
        } catch (error) {
          throw internalError('append the message', taskId, error);
        }
        const nextTask: Task = { ...loaded.task, updatedAt: clock.now() };
        metaBehind.add(taskId);
        messages.push(message);
        loaded.messages = messages;
        loaded.messageIds = messageIds;
        messageIds.add(message.id);
        noteMessagesUsed(loaded, messageWeight(message));
        commitTask(loaded, nextTask);
        return { message: structuredClone(message), appended: true };
      });
    },

    async listMessages(taskId) {
      return onTask(taskId, async () => structuredClone((await loadMessages(await loadTask(taskId))).messages));
    },

    pendingOperations: () => inFlight.size,

    async close() {
      // Bring meta.json's updatedAt up to date for tasks that only had messages appended.
      for (const taskId of [...metaBehind]) {
        void track(
          queue.run(taskId, async () => {
            if (!metaBehind.has(taskId) || !index.has(taskId)) return;
            const loaded = await loadTask(taskId);
            await writeMeta(loaded.task, 'update the task');
            commitTask(loaded, loaded.task);
          }),
        ).catch(() => undefined);
      }
      closed = true;
      await ready?.catch(() => undefined);
      await inFlight.drain();
      await queue.drain();
      await indexWriter.drain();
      await files.close?.();
      await files.index.close?.();
    },
  };
}
