// AgentOrchestrator (seed 000 §1, §3): user_message -> idempotent task create -> persist ->
// taskMachine to running -> the turn (LLM <-> browser tools) -> chatDelta / toolUsed /
// structuredOutput / taskStatus to the web. Also takeover / resume / stop from the web or the
// page overlay, live inspection, and the restore of interrupted tasks after a restart.
import { nanoid } from 'nanoid';
import { taskStatusOf, actionInFlightOf } from '../../machines/index.ts';
import type { OverlayCommand, PageInterruption, TakeoverReport, UserMessage } from '../../transport/contracts/index.ts';
import type { RuntimeServices } from '../server.ts';
import type { ControlResult, TaskControl } from '../socket/task-control.ts';
import { createFinishedTabs } from './finished-tabs.ts';
import { titleFrom } from './task-history.ts';
import { restoredTaskOf, type RestoredTask } from './task-restore.ts';
import { createTaskSession, type OrchestratorOptions, type TaskSession, type TaskSessionContext } from './task-session.ts';

export type { OrchestratorOptions } from './task-session.ts';

/** A user message to run again after a failover, with the traceId its turn first ran under. */
export interface ReplayMessage {
  id: string;
  content: string;
  traceId?: string;
}

const ok = (data?: Record<string, unknown>): ControlResult => ({ ok: true, ...(data ? { data } : {}) });
const notFound = (taskId: string): ControlResult => ({ ok: false, error: { code: 'NOT_FOUND', message: `task ${taskId} does not exist` } });

export { basicUrlCheck } from './task-history.ts';

export function createAgentOrchestrator(
  services: RuntimeServices,
  options: OrchestratorOptions,
): TaskControl & { restore(): Promise<number>; resumeInterrupted(taskId: string, note: string | null, replay?: ReplayMessage[]): Promise<ControlResult>; drop(taskId: string): void; sessionOf(taskId: string): TaskSession | undefined } {
  const { taskStore, events, scheduler, registry, clock, log } = services;
  const sessions = new Map<string, TaskSession>();
  const stepLimit = options.stepLimit ?? 20;
  const finishedTabs = createFinishedTabs();

  const sessionContext: TaskSessionContext = {
    services,
    options,
    stepLimit,
    finishedTabs,
    register: (session) => sessions.set(session.taskId, session),
  };
  const createSession = (taskId: string, restored?: RestoredTask): TaskSession => createTaskSession(sessionContext, taskId, restored);

  /** The task's one live actor; built once per task (after a restart: from what is stored). */
  async function sessionFor(taskId: string): Promise<TaskSession | undefined> {
    const live = sessions.get(taskId);
    if (live) return live;
    const task = await taskStore.getTask(taskId);
    if (!task) return undefined;
    const again = sessions.get(taskId);
    if (again) return again;
    if (task.selectedClientId && !registry.selectionOf(taskId)) registry.select(taskId, task.selectedClientId);
    const restored = restoredTaskOf(task);
    if (restored.status !== task.status) await taskStore.updateTask(taskId, { status: restored.status });
    return sessions.get(taskId) ?? createSession(taskId, restored.status === 'created' ? undefined : restored);
  }

  async function noteToTask(taskId: string, message: string): Promise<void> {
    events.toTask(taskId, { type: 'structuredOutput', status: 'info', message });
    await taskStore.appendMessage(taskId, { id: `msg-${nanoid(12)}`, role: 'system', content: message, timestamp: clock.now() }).catch(() => {});
  }

  const control = {
    async userMessage(message: UserMessage, context: { traceId?: string } = {}): Promise<ControlResult> {
      // One traceId per user message (the client's, or a new one): the store, the LLM calls,
      // the plugin frames and the frontend events of its turn all carry it.
      const traceId = context.traceId ?? message.traceId ?? `trace-${message.id}`;
      const { task, created } = await taskStore.createTaskIfAbsent({ taskId: message.taskId, title: titleFrom(message.content) });
      if (created) events.toAllFrontends({ type: 'taskListChanged', taskId: task.taskId, status: task.status, title: task.title, createdAt: task.createdAt });
      const appended = await taskStore.appendMessage(task.taskId, { id: message.id, role: 'user', content: message.content, timestamp: message.timestamp, meta: { traceId } });
      if (!appended.appended) return ok({ taskId: task.taskId, duplicate: true });
      const session = await sessionFor(task.taskId);
      session!.actor.send({ type: 'USER_MESSAGE', message: { id: message.id, content: message.content, traceId } });
      return ok({ taskId: task.taskId, status: taskStatusOf(session!.actor.getSnapshot()), traceId });
    },
    /**
     * select_extension: the clientId must be a plugin this server knows; the choice is persisted as
     * the task's selectedClientId (GET /api/task/:id returns it, a restart keeps it) and the very
     * next action of the task goes to it.
     */
    async selectExtension(taskId: string, clientId: string): Promise<ControlResult> {
      if (!registry.get(clientId)) {
        return { ok: false, error: { code: 'NOT_FOUND', message: `no browser extension with clientId ${clientId} has connected to this server` } };
      }
      const task = await taskStore.getTask(taskId);
      if (!task) return notFound(taskId);
      await taskStore.updateTask(taskId, { selectedClientId: clientId });
      registry.select(taskId, clientId);
      log({ event: 'extension_selected', taskId, clientId });
      return ok({ taskId, clientId, online: registry.isOnline(clientId) });
    },
    async takeover(taskId: string, source: 'web' | 'plugin', reason: string): Promise<ControlResult> {
      const session = await sessionFor(taskId);
      if (!session) return notFound(taskId);
      const before = taskStatusOf(session.actor.getSnapshot());
      session.actor.send({ type: 'TAKEOVER', reason });
      session.pageStale = true;
      const after = taskStatusOf(session.actor.getSnapshot());
      if (after !== 'takeover') return { ok: false, error: { code: 'CONFLICT', message: `a ${before} task cannot be taken over` } };
      log({ event: 'takeover', taskId, source, reason });
      return ok({ status: after });
    },
    async resume(taskId: string, source: 'web' | 'plugin'): Promise<ControlResult> {
      const session = await sessionFor(taskId);
      if (!session) return notFound(taskId);
      if (taskStatusOf(session.actor.getSnapshot()) !== 'takeover') return { ok: false, error: { code: 'CONFLICT', message: 'the task is not in takeover' } };
      session.mirror.resume();
      session.actor.send({ type: 'RESUME' });
      log({ event: 'resume', taskId, source });
      return ok({ status: taskStatusOf(session.actor.getSnapshot()) });
    },
    async stop(taskId: string, source: 'web' | 'plugin', reason?: string): Promise<ControlResult> {
      const session = await sessionFor(taskId);
      if (!session) return notFound(taskId);
      const clientId = session.browser.clientId;
      // STOP cancels what is in flight: the action child tells the plugin (task_stop) and settles
      // as canceled, queued actions settle unsent, the turn is stopped with the running state.
      const hadAction = actionInFlightOf(session.actor.getSnapshot()) !== null;
      session.mirror.stop();
      session.actor.send({ type: 'STOP' });
      // A stopped task's tab closes (and its tab group with its last tab). When an action was in
      // flight, the scheduler's cancel has already sent task_stop (without closing the tab).
      if (!hadAction && clientId && registry.isOnline(clientId)) {
        void scheduler.run({ taskId, clientId, actionName: 'task_stop', params: { closeTab: true } }).catch(() => {});
      }
      await noteToTask(taskId, `Task stopped by the user (${source === 'web' ? 'web UI' : 'page overlay'})${reason ? `: ${reason}` : ''}.`);
      return ok({ status: 'completed' });
    },
    async takeoverReport(report: TakeoverReport): Promise<ControlResult> {
      const session = sessions.get(report.taskId);
      if (!session || session.browser.clientId !== report.clientId) {
        return { ok: false, error: { code: 'INVALID_TASK_TAB', message: 'this plugin does not serve that task' } };
      }
      session.mirror.userInput(report.reason);
      return control.takeover(report.taskId, 'plugin', report.reason);
    },
    async overlayCommand(command: OverlayCommand): Promise<ControlResult> {
      const session = sessions.get(command.taskId);
      if (!session || session.browser.clientId !== command.clientId) {
        return { ok: false, error: { code: 'INVALID_TASK_TAB', message: 'this plugin does not serve that task' } };
      }
      return command.command === 'resume' ? control.resume(command.taskId, 'plugin') : control.stop(command.taskId, 'plugin');
    },
    async pageInterruption(report: PageInterruption): Promise<ControlResult> {
      const session = sessions.get(report.taskId);
      if (!session || session.browser.clientId !== report.clientId) {
        return { ok: false, error: { code: 'INVALID_TASK_TAB', message: 'this plugin does not serve that task' } };
      }
      const { v: _v, type: _type, clientId: _clientId, traceId: _traceId, ...data } = report;
      const message = `In tab ${report.tabId}: ${report.message}.`;
      events.toTask(report.taskId, { type: 'structuredOutput', status: 'info', message, data: { pageInterruption: data } });
      await taskStore.appendMessage(report.taskId, { id: `msg-${nanoid(12)}`, role: 'system', content: message, timestamp: clock.now() }).catch(() => {});
      log({ event: 'page_interruption', taskId: report.taskId, tabId: report.tabId, kind: report.kind });
      return ok({});
    },
    inspect(taskId: string, listener: (envelope: ReturnType<typeof events.envelope>) => void) {
      const send = (record: object) => listener(events.envelope({ type: 'inspection', record: record as never }, taskId));
      for (const record of options.inspection.recent(taskId)) send(record);
      return options.inspection.subscribe(taskId, send);
    },
    /**
     * After a restart: every task that was cut short (running, takeover) is restored now, with its
     * note to the user (see task-restore.ts); the others are restored when first touched.
     */
    async restore(): Promise<number> {
      let restored = 0;
      for (const task of await taskStore.listTasks()) {
        const after = restoredTaskOf(task);
        if (!after.note) continue;
        if (after.status !== task.status) await taskStore.updateTask(task.taskId, { status: after.status });
        await noteToTask(task.taskId, after.note);
        restored++;
      }
      return restored;
    },
    /**
     * Failover (cluster mode, runtime/cluster/): this node now owns a task another node was
     * running. It is restored from the store as ongoing, the user is told (no note after a
     * handoff), and a turn that had not been answered is run again from its user message (its
     * actions are idempotent there). With `replay` (the cluster's list of unanswered messages, in
     * order) every one of them runs again, under its first traceId: the first now, the rest queued.
     */
    async resumeInterrupted(taskId: string, note: string | null, replay?: ReplayMessage[]): Promise<ControlResult> {
      const task = await taskStore.getTask(taskId);
      if (!task) return notFound(taskId);
      const messages = await taskStore.listMessages(taskId);
      let lastUser = -1;
      for (let i = messages.length - 1; i >= 0 && lastUser === -1; i--) if (messages[i]!.role === 'user') lastUser = i;
      const unanswered = lastUser !== -1 && !messages.slice(lastUser + 1).some((m) => m.role === 'assistant');
      // As after a restart (task-restore.ts), with the cluster's note instead of the restart's.
      const restored = restoredTaskOf(task);
      if (restored.status !== task.status) await taskStore.updateTask(taskId, { status: restored.status });
      if (note) await noteToTask(taskId, note);
      const session = sessions.get(taskId) ?? createSession(taskId, restored.status === 'created' ? undefined : restored);
      const fallback: ReplayMessage[] = task.status === 'running' && unanswered ? [{ id: messages[lastUser]!.id, content: messages[lastUser]!.content }] : [];
      const toRun = task.status === 'takeover' ? [] : (replay ?? fallback);
      for (const message of toRun) session.actor.send({ type: 'USER_MESSAGE', message: { id: message.id, content: message.content, ...(message.traceId ? { traceId: message.traceId } : {}) } });
      return ok({ taskId, rerun: toRun.length > 0, replayed: toRun.length });
    },
    /** Cluster mode: another node runs the task now; its actor here stops, nothing is persisted. */
    drop(taskId: string): void {
      const session = sessions.get(taskId);
      if (!session) return;
      sessions.delete(taskId);
      session.actor.stop();
    },
    sessionOf: (taskId: string) => sessions.get(taskId),
    stepsInFlight: (taskId: string) => sessions.get(taskId)?.browser.stepsInFlight() ?? [],
    liveTarget: (taskId: string) => {
      const browser = sessions.get(taskId)?.browser;
      return browser?.clientId && browser.tabId !== null ? { clientId: browser.clientId, tabId: browser.tabId } : null;
    },
  };
  return control;
}
