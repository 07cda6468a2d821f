export { createTaskStore } from './task-store.ts';
export type { TaskStoreOptions } from './task-store.ts';
export { createMemoryTaskStore } from './memory-task-store.ts';
export type { MemoryTaskStoreOptions } from './memory-task-store.ts';
export { createMemoryTaskFiles } from './memory-task-files.ts';
export type { MemoryTaskFiles } from './memory-task-files.ts';
export { createTaskStoreCore } from './task-store-core.ts';
export type { TaskStoreCoreOptions } from './task-store-core.ts';
export { createFsTaskFiles } from './task-files.ts';
export type { TaskFiles, TaskMetaDoc, MessagesDoc, FsTaskFilesOptions } from './task-files.ts';
export { TaskStoreError, isTaskStoreError } from './task-store-error.ts';
export type { TaskStoreErrorCode, TaskStoreErrorDetails } from './task-store-error.ts';
export { isStorableTaskId, isUuidOrUlid, MAX_TITLE_LENGTH } from './task-validation.ts';
export { TASK_STATUSES, MESSAGE_ROLES } from './task-types.ts';
export { summarize } from './task-record.ts';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, pageOf, parsePageQuery, encodeCursor } from './task-page.ts';
export type {
  Clock,
  CreateTaskInput,
  InitReport,
  JsonValue,
  Message,
  MessageRole,
  Task,
  TaskPage,
  TaskPageQuery,
  TaskPatch,
  TaskStatus,
  TaskStore,
  TaskSummary,
  TaskUsage,
} from './task-types.ts';
