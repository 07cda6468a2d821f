// One task's record as the file and memory stores keep it: its summary (the index and the task
// list), the check of a meta file read back, and a patch applied to a copy. Pure.
import type { TaskMetaDoc } from './task-files.ts';
import { TASK_STATUSES } from './task-types.ts';
import type { Task, TaskSummary } from './task-types.ts';
import type { ParsedPatch } from './task-validation.ts';

/** A task's summary (the list row): the record without its usage and machine snapshot. */
export function summarize(task: TaskSummary): TaskSummary {
  const summary: TaskSummary = {
    taskId: task.taskId,
    title: task.title,
    status: task.status,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
  if (task.selectedClientId !== undefined) summary.selectedClientId = task.selectedClientId;
  if (task.outcome !== undefined) summary.outcome = task.outcome;
  return summary;
}

export function isMetaDoc(doc: unknown, taskId: string): doc is TaskMetaDoc {
  if (typeof doc !== 'object' || doc === null) return false;
  const task = (doc as { task?: Partial<Task> }).task;
  return (
    typeof task === 'object' &&
    task !== null &&
    task.taskId === taskId &&
    typeof task.title === 'string' &&
    (TASK_STATUSES as readonly unknown[]).includes(task.status) &&
    typeof task.createdAt === 'number' &&
    typeof task.updatedAt === 'number'
  );
}

/** A patch applied to a copy; an outcome is kept only while the status is `error`. */
export function applyPatch(task: Task, patch: ParsedPatch, now: number): Task {
  const next: Task = { ...task, updatedAt: now };
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.title !== undefined) next.title = patch.title;
  if (patch.usage !== undefined) next.usage = patch.usage;
  if (patch.selectedClientId === null) delete next.selectedClientId;
  else if (patch.selectedClientId !== undefined) next.selectedClientId = patch.selectedClientId;
  if (patch.machineSnapshot === null) delete next.machineSnapshot;
  else if (patch.machineSnapshot !== undefined) next.machineSnapshot = patch.machineSnapshot;
  if (patch.outcome === null || next.status !== 'error') delete next.outcome;
  else if (patch.outcome !== undefined) next.outcome = patch.outcome;
  return next;
}
