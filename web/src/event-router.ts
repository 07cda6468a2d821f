// Where each frontend event goes: list-wide events (snapshot sync, the task list) always, a task's
// own events only while that task is open, each with its envelope's seq so the chat keeps the
// task's order.
import type { ReadonlySignal } from '@preact/signals';
import type { FrontendEvent } from '../../transport/contracts/frontend-event.ts';
import type { ChatModel } from './models/chat-model.ts';
import type { InspectionModel } from './models/inspection-model.ts';
import type { PersonGuardModel } from './models/person-guard-model.ts';
import { tabIdFromParams, type SnapshotModel } from './models/snapshot-model.ts';
import type { TaskListModel } from './models/task-list-model.ts';
import type { TaskStatusModel } from './models/task-status-model.ts';
import type { TurnOutcomeModel } from './models/turn-outcome-model.ts';

export interface EventRouterDeps {
  currentTaskId: ReadonlySignal<string | null>;
  tasks: TaskListModel;
  chat: ChatModel;
  snapshot: SnapshotModel;
  status: TaskStatusModel;
  outcome: TurnOutcomeModel;
  inspection: InspectionModel;
  person: PersonGuardModel;
}

export function createEventRouter(deps: EventRouterDeps): (env: FrontendEvent) => void {
  const { currentTaskId, tasks, chat, snapshot, status, outcome, inspection, person } = deps;
  const onTaskEvent: {
    [T in FrontendEvent['event']['type']]?: (
      e: Extract<FrontendEvent['event'], { type: T }>,
      env: FrontendEvent,
    ) => void;
  } = {
    // Each with its envelope's seq: the chat is kept in the task's order.
    userMessage: (e, env) => void chat.applyEvent(e, env.seq),
    chatDelta: (e, env) => void chat.applyEvent(e, env.seq),
    structuredOutput: (e, env) => {
      if (chat.applyEvent(e, env.seq) && e.error) outcome.noteError(e.error);
    },
    usage: (e, env) => void chat.applyEvent(e, env.seq),
    toolUsed: (e, env) => {
      if (!chat.applyEvent(e, env.seq)) return;
      const tabId = tabIdFromParams(e.paramsSummary);
      if (tabId !== null) snapshot.setTaskTab(tabId);
    },
    taskStatus: (e) => {
      if (!status.applyEvent(e)) return;
      outcome.onStatus(e.status);
      if (status.finished.value) chat.cancelRunning();
    },
    inspection: (e) => void inspection.apply(e),
    confirmationRequested: (e) => person.applyRequested(e),
    confirmationResolved: (e) => person.applyResolved(e),
    taskScope: (e) => person.applyScope(e),
  };

  function onEvent(env: FrontendEvent) {
    const e = env.event;
    if (e.type === 'snapshotSync') {
      snapshot.applySync(e);
      return;
    }
    if (e.type === 'taskListChanged') {
      tasks.applyListChange({
        taskId: e.taskId,
        status: e.status,
        timestamp: e.timestamp,
        ...(e.outcome !== undefined ? { outcome: e.outcome } : {}),
        ...(e.title !== undefined ? { title: e.title } : {}),
        ...(e.createdAt !== undefined ? { createdAt: e.createdAt } : {}),
      });
      return;
    }
    if (e.type === 'taskStatus' && env.taskId) tasks.applyStatus(env.taskId, e.status, e.timestamp, e.outcome);
    if (!env.taskId || env.taskId !== currentTaskId.value) return;
    (onTaskEvent[e.type] as ((e: FrontendEvent['event'], env: FrontendEvent) => void) | undefined)?.(e, env);
  }

  return onEvent;
}
