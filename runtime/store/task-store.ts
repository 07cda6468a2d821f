// The file-backed task store: `createTaskStore({ dataDir, clock })`. Layout and durability are
// described in README.md; the logic shared with the memory store is in task-store-core.ts.
import { createFsTaskFiles } from './task-files.ts';
import { createTaskStoreCore } from './task-store-core.ts';
import type { Clock, TaskStore } from './task-types.ts';

export interface TaskStoreOptions {
  /** Folder holding `tasks/`; created on first use. */
  dataDir: string;
  clock: Clock;
  /** fsync every write (survives power loss, slower). Default false: survives a killed process. */
  fsync?: boolean;
  /** How many tasks to keep loaded in memory; default 500. */
  cacheSize?: number;
  /** Byte budget of loaded message lists; default 16 MiB (see task-store-core.ts). */
  messageCacheBytes?: number;
  /** Message logs kept open for appending (LRU, one fd each); default 256 (see task-files.ts). */
  openLogs?: number;
}

export function createTaskStore({
  dataDir,
  clock,
  fsync = false,
  cacheSize,
  messageCacheBytes,
  openLogs,
}: TaskStoreOptions): TaskStore {
  return createTaskStoreCore({
    files: createFsTaskFiles({ dataDir, fsync, ...(openLogs === undefined ? {} : { openLogs }) }),
    clock,
    ...(cacheSize === undefined ? {} : { cacheSize }),
    ...(messageCacheBytes === undefined ? {} : { messageCacheBytes }),
  });
}
