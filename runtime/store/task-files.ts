// Where the task store keeps its documents. The store logic (task-store-core.ts) only talks to
// this interface; `createFsTaskFiles` is the on-disk layout (see README.md), the memory variant
// is in memory-task-files.ts. Documents are read and written through lowdb `Adapter`s.
import { mkdir, open, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Adapter } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { createAppendFiles } from './append-files.ts';
import { DurableJsonFile } from './durable-json-file.ts';
import { createFsMessageLog, type MessageLog } from './message-log.ts';
import type { IndexFile } from './task-index.ts';
import { isStorableTaskId } from './task-validation.ts';
import type { Message, Task } from './task-types.ts';

export const FILE_FORMAT_VERSION = 1;

/** `tasks/<taskId>/meta.json`: one small document per task. */
export interface TaskMetaDoc {
  version: number;
  task: Task;
}

/** `tasks/<taskId>/messages.json`: the messages of a store from before the append log (read only). */
export interface MessagesDoc {
  version: number;
  taskId: string;
  messages: Message[];
}

export interface TaskFiles {
  /** Ids of every task folder (whether or not its meta file is readable). */
  listTaskIds(): Promise<string[]>;
  /** Makes sure the task's folder exists (called before the first write of a task). */
  prepareTask(taskId: string): Promise<void>;
  meta(taskId: string): Adapter<TaskMetaDoc>;
  /** The task's messages: an append-only log (its cost does not grow with the history). */
  messageLog(taskId: string): MessageLog;
  /** The summary index (task-index.ts): `tasks/index.jsonl`. */
  index: IndexFile;
  /** Lets go of what the task's files hold open (its log's append handle); it reopens on use. */
  releaseTask?(taskId: string): Promise<void>;
  /** Closes every held log handle (the store's `close()`; the index has its own `close`). */
  close?(): Promise<void>;
}

export interface FsTaskFilesOptions {
  dataDir: string;
  /**
   * false (default): lowdb's DataFile, i.e. steno's temp file + rename; survives a killed process.
   * true: also fsync the temp file and the folder before resolving; survives a power loss too.
   */
  fsync?: boolean;
  /**
   * How many message logs to keep open for appending (LRU, one fd each); default 256. Above the
   * number of tasks that append at the same time, or each append reopens its log.
   */
  openLogs?: number;
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function createFsTaskFiles({ dataDir, fsync = false, openLogs = 256 }: FsTaskFilesOptions): TaskFiles {
  const tasksDir = join(dataDir, 'tasks');
  const taskDir = (taskId: string) => join(tasksDir, taskId);
  const logFile = (taskId: string) => join(taskDir(taskId), 'messages.jsonl');
  // No torn-tail check on open: the store reads a log (which trims a torn last line) before its
  // first append, and the pool cuts back its own failed writes.
  const appends = createAppendFiles({ capacity: openLogs, fsync, trimOnOpen: false });
  const index = createFsIndexFile(join(tasksDir, 'index.jsonl'), fsync);

  function jsonFile<T>(file: string): Adapter<T> {
    if (fsync) return new DurableJsonFile<T>(file);
    // Compact JSON: these files are rewritten whole on every change.
    return new DataFile<T>(file, { parse: (text) => JSON.parse(text) as T, stringify: (data) => JSON.stringify(data) });
  }

  return {
    index,
    releaseTask: (taskId) => appends.release(logFile(taskId)),
    close: () => appends.close(),
    async listTaskIds() {
      let entries;
      try {
        entries = await readdir(tasksDir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await mkdir(tasksDir, { recursive: true });
        return [];
      }
      return entries.filter((entry) => entry.isDirectory() && isStorableTaskId(entry.name)).map((entry) => entry.name);
    },
    async prepareTask(taskId) {
      const created = await mkdir(taskDir(taskId), { recursive: true });
      if (fsync && created !== undefined) await syncDir(tasksDir);
    },
    meta: (taskId) => jsonFile<TaskMetaDoc>(join(taskDir(taskId), 'meta.json')),
    messageLog: (taskId) =>
      createFsMessageLog({
        file: logFile(taskId),
        legacy: async () =>
          (await jsonFile<MessagesDoc>(join(taskDir(taskId), 'messages.json')).read())?.messages ?? [],
        appends,
      }),
  };
}

/**
 * The index file: appends through one held handle (append-files.ts: a synchronous write(2)
 * without fsync; a torn last line, from a kill mid-append, is trimmed when it is first opened),
 * replaced by temp file + rename (after which the handle on the old file is let go).
 */
function createFsIndexFile(file: string, fsync: boolean): IndexFile {
  const appends = createAppendFiles({ capacity: 1, fsync });
  return {
    async read() {
      try {
        return await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    append: (text) => appends.append(file, text),
    async replace(text) {
      const tmp = `${file}.tmp`;
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(tmp, text);
      if (fsync) {
        const h = await open(tmp, 'r+');
        try {
          await h.sync();
        } finally {
          await h.close();
        }
      }
      await rename(tmp, file);
      if (fsync) await syncDir(join(file, '..'));
      await appends.release(file);
    },
    close: () => appends.close(),
  };
}
