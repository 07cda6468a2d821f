// The task store's data shapes and its public interface (seed 000 §1 TaskStore, seed 001 §2.1).
// Both implementations (files on disk, memory) satisfy `TaskStore`.

/** Seed 000 §2.1: the server-side task states. */
export const TASK_STATUSES = ['created', 'running', 'ongoing', 'takeover', 'completed', 'error'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** How a turn that left the task in `error` ended (web: Failed with Retry, Interrupted with Resume). */
export const TURN_OUTCOMES = ['error', 'interrupted'] as const;
export type TurnOutcome = (typeof TURN_OUTCOMES)[number];

export const MESSAGE_ROLES = ['user', 'assistant', 'tool', 'system'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export interface TaskUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** A JSON value as it comes back from `JSON.parse`. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One row of `GET /api/task/list`. */
export interface TaskSummary {
  taskId: string;
  title: string;
  status: TaskStatus;
  createdAt: number;
  updatedAt: number;
  selectedClientId?: string;
  /** How the last turn ended when `status` is `error`: failed, or cut short by a server restart. */
  outcome?: TurnOutcome;
}

/** The full task record: the summary plus what the runtime persists between turns. */
export interface Task extends TaskSummary {
  /** Token usage as last written by `updateTask` (replaced, not summed, by the store). */
  usage: TaskUsage;
  /** A persisted XState snapshot (`actor.getPersistedSnapshot()`), stored as JSON. */
  machineSnapshot?: JsonValue;
}

export interface Message {
  id: string;
  role: MessageRole;
  content: string;
  timestamp: number;
  meta?: { [key: string]: JsonValue };
}

export interface CreateTaskInput {
  taskId: string;
  title: string;
  selectedClientId?: string;
}

/**
 * Fields `updateTask` may change. `null` clears an optional field. Any other key is refused
 * with BAD_REQUEST. `updatedAt` is set by the store from its clock on every successful update.
 */
export interface TaskPatch {
  status?: TaskStatus;
  title?: string;
  selectedClientId?: string | null;
  machineSnapshot?: unknown;
  usage?: TaskUsage;
  /** Kept only while the status is `error` (a status other than `error` clears it). */
  outcome?: TurnOutcome | null;
}

import type { TaskPage, TaskPageQuery } from './task-page.ts';
export type { TaskPage, TaskPageQuery } from './task-page.ts';

/** The runtime's one clock type (runtime/clock); this module only reads `now()`. */
import type { WallClock } from '../clock/index.ts';
export type Clock = WallClock;

export interface InitReport {
  /** Tasks found and indexed. */
  taskCount: number;
  /** Task folders that could not be read (missing or unparseable meta file); left untouched on disk. */
  skipped: Array<{ taskId: string; reason: string }>;
}

/**
 * Every method is async and rejects with a `TaskStoreError` (`code`: BAD_REQUEST, NOT_FOUND,
 * CONFLICT or INTERNAL; `status`: the HTTP status) instead of throwing. Returned objects are
 * copies: mutating them does not change the store.
 */
export interface TaskStore {
  /** Loads the index. Idempotent; every other method calls it on first use. */
  init(): Promise<InitReport>;
  /** Seed 001 §2.1 idempotent creation: an existing task is returned unchanged with `created: false`. */
  createTaskIfAbsent(input: CreateTaskInput): Promise<{ task: Task; created: boolean }>;
  /** `undefined` when no task has this id. */
  getTask(taskId: string): Promise<Task | undefined>;
  /** All tasks, most recently updated first. */
  listTasks(): Promise<TaskSummary[]>;
  /**
   * One page of `listTasks` (task-page.ts): `limit` 1..500 (default 50), `cursor` = the previous
   * page's `nextCursor`. BAD_REQUEST for a bad limit or cursor.
   */
  listTaskPage(query: TaskPageQuery): Promise<TaskPage>;
  /** NOT_FOUND when the task does not exist. */
  updateTask(taskId: string, patch: TaskPatch): Promise<Task>;
  /**
   * Resolves once the message is durable (on disk for the file store). Idempotent by message id:
   * the same id with the same content resolves with `appended: false`; with different content,
   * CONFLICT. Also moves the task's `updatedAt` to the store clock.
   */
  appendMessage(taskId: string, message: Message): Promise<{ message: Message; appended: boolean }>;
  /** Messages in append order; NOT_FOUND when the task does not exist. */
  listMessages(taskId: string): Promise<Message[]>;
  /** Waits for pending writes; later calls reject with INTERNAL. */
  close(): Promise<void>;
  /** Store operations queued or running now (0 when the store is idle); for health checks and the soak. */
  pendingOperations?(): number;
}
