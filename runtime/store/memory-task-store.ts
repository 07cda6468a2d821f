// The in-memory task store for tests of other modules: same logic and same serialization as the
// file store (see memory-task-files.ts), nothing on disk.
import { createMemoryTaskFiles } from './memory-task-files.ts';
import type { MemoryTaskFiles } from './memory-task-files.ts';
import { createTaskStoreCore } from './task-store-core.ts';
import type { Clock, TaskStore } from './task-types.ts';

export interface MemoryTaskStoreOptions {
  clock: Clock;
  /** Pass your own to flip `failWrites` and simulate a failing disk. */
  files?: MemoryTaskFiles;
}

export function createMemoryTaskStore({ clock, files = createMemoryTaskFiles() }: MemoryTaskStoreOptions): TaskStore {
  return createTaskStoreCore({ files, clock });
}
