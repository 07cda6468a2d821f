// Bringing tasks back: after a restart, the tasks a dead process cut short (running, takeover)
// get their note and status now (task-restore.ts says which); after a failover in cluster mode, a
// task another node was running is restored here and its unanswered messages run again.
import { taskValueOf } from '../../machines/index.ts';
import { taskNotFound, controlOk, type ControlResult } from '../services/task-control.ts';
import type { TaskStore } from '../store/index.ts';
import type { TaskSession } from './task-session.ts';
import { restoredPatchOf, restoredTaskOf, type RestoredTask } from './task-restore.ts';

/** A user message to run again after a failover, with the traceId its turn first ran under. */
export interface ReplayMessage {
  id: string;
  content: string;
  traceId?: string;
}

export interface TaskRecoveryDeps {
  taskStore: TaskStore;
  sessions: Map<string, TaskSession>;
  createSession(taskId: string, restored?: RestoredTask): TaskSession;
  noteToTask(taskId: string, message: string, interrupted?: boolean): Promise<void>;
}

export function createTaskRecovery(deps: TaskRecoveryDeps) {
  const { taskStore, sessions, createSession, noteToTask } = deps;

  /**
   * After a restart: every task that was cut short (running, takeover) is restored now, with its
   * note to the user (see task-restore.ts); the others are restored when first touched.
   */
  async function restore(): Promise<number> {
    let restored = 0;
    for (const task of await taskStore.listTasks()) {
      const after = restoredTaskOf(task);
      if (!after.note) continue;
      if (after.status !== task.status) await taskStore.updateTask(task.taskId, restoredPatchOf(after));
      await noteToTask(task.taskId, after.note, after.interrupted === true);
      restored++;
    }
    return restored;
  }

  /**
   * Failover (cluster mode, runtime/cluster/): this node now owns a task another node was
   * running. It is restored from the store as ongoing, the user is told (no note after a
   * handoff), and a turn that had not been answered is run again from its user message (its
   * actions are idempotent there). With `replay` (the cluster's list of unanswered messages, in
   * order) every one of them runs again, under its first traceId: the first now, the rest queued.
   */
  async function resumeInterrupted(
    taskId: string,
    note: string | null,
    replay?: ReplayMessage[],
  ): Promise<ControlResult> {
    const task = await taskStore.getTask(taskId);
    if (!task) return taskNotFound(taskId);
    const messages = await taskStore.listMessages(taskId);
    let lastUser = -1;
    for (let i = messages.length - 1; i >= 0 && lastUser === -1; i--) if (messages[i]!.role === 'user') lastUser = i;
    const unanswered = lastUser !== -1 && !messages.slice(lastUser + 1).some((m) => m.role === 'assistant');
    // As after a restart (task-restore.ts), with the cluster's note instead of the restart's, except
    // that a running turn is carried on here (run again below, its actions answered from the
    // ledger): it does not pass through `error` (which would end its ledger turn and lock).
    const restored: RestoredTask =
      task.status === 'running'
        ? { status: 'ongoing', value: taskValueOf('ongoing'), note: null }
        : restoredTaskOf(task);
    if (restored.status !== task.status) await taskStore.updateTask(taskId, restoredPatchOf(restored));
    if (note) await noteToTask(taskId, note);
    const session = sessions.get(taskId) ?? createSession(taskId, restored.status === 'created' ? undefined : restored);
    // The scope is the person's words, on this node too.
    session.title ??= task.title;
    for (const m of messages) if (m.role === 'user') session.guard?.noteRequest(m.content);
    const fallback: ReplayMessage[] =
      task.status === 'running' && unanswered
        ? [{ id: messages[lastUser]!.id, content: messages[lastUser]!.content }]
        : [];
    const toRun = task.status === 'takeover' ? [] : (replay ?? fallback);
    for (const message of toRun)
      session.actor.send({
        type: 'USER_MESSAGE',
        message: {
          id: message.id,
          content: message.content,
          ...(message.traceId ? { traceId: message.traceId } : {}),
        },
      });
    return controlOk({ taskId, rerun: toRun.length > 0, replayed: toRun.length });
  }

  return { restore, resumeInterrupted };
}
