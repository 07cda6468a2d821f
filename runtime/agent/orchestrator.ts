// AgentOrchestrator (seed 000 §1, §3): user_message -> idempotent task create -> persist ->
// taskMachine to running -> the turn (LLM <-> browser tools) -> chatDelta / toolUsed /
// structuredOutput / taskStatus to the web. Also takeover / resume / stop from the web or the
// page overlay, and live inspection; tasks cut short by a restart or a failover come back through
// task-recovery.ts.
import { nanoid } from 'nanoid';
import { errorValue, taskStatusOf, actionInFlightOf } from '../../machines/index.ts';
import type {
  NormalizedActionResult,
  OverlayCommand,
  PageInterruption,
  PluginConfirmationAnswer,
  TakeoverReport,
  UserMessage,
} from '../../transport/contracts/index.ts';
import type { RuntimeServices } from '../services/runtime-services.ts';
import { taskNotFound, controlOk, type ControlResult, type TaskControl } from '../services/task-control.ts';
import { lastStoredSeq } from '../socket/task-seq.ts';
import { createFinishedTabs } from './finished-tabs.ts';
import { controlToolTask } from './tool-task-control.ts';
import { createPersonControls } from './person-controls.ts';
import { titleFrom } from './task-history.ts';
import { restoredPatchOf, restoredTaskOf, type RestoredTask } from './task-restore.ts';
import { createTaskRecovery, type ReplayMessage } from './task-recovery.ts';
import { failureNoteOf } from './turn-failure-note.ts';
import {
  createTaskSession,
  type OrchestratorOptions,
  type TaskSession,
  type TaskSessionContext,
} from './task-session.ts';

export type { OrchestratorOptions } from './task-session.ts';

export { basicUrlCheck } from './task-history.ts';

export function createAgentOrchestrator(
  services: RuntimeServices,
  options: OrchestratorOptions,
): TaskControl & {
  restore(): Promise<number>;
  resumeInterrupted(taskId: string, note: string | null, replay?: ReplayMessage[]): Promise<ControlResult>;
  drop(taskId: string): void;
  sessionOf(taskId: string): TaskSession | undefined;
} {
  const { taskStore, events, scheduler, registry, clock, log, tasks } = services;
  /** A tool task (an MCP session's tab) by id: not a chat task, but takeover, Resume and Stop reach it too. */
  const toolTree = (taskId: string) => {
    const tree = tasks.get(taskId);
    return tree?.kind === 'tool' ? tree : undefined;
  };
  /** The plugin serves the task (a chat task's or a tool task's tab). */
  const servedBy = (taskId: string, clientId: string) => {
    const session = sessions.get(taskId);
    return session ? session.browser.clientId === clientId : toolTree(taskId)?.clientId() === clientId;
  };
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
  const createSession = (taskId: string, restored?: RestoredTask): TaskSession => {
    const session = createTaskSession(sessionContext, taskId, restored);
    person.adopt(session);
    return session;
  };
  const person = createPersonControls({ sessionFor: (taskId) => sessionFor(taskId), services });

  /** A task first touched since this server started goes on after the seq its history holds. */
  async function seedSeq(taskId: string): Promise<void> {
    if (events.seq.has(taskId)) return;
    const last = lastStoredSeq(await taskStore.listMessages(taskId).catch(() => []));
    events.seq.seed(taskId, last);
  }

  /** The task's one live actor; built once per task (after a restart: from what is stored). */
  async function sessionFor(taskId: string): Promise<TaskSession | undefined> {
    const live = sessions.get(taskId);
    if (live) return live;
    const task = await taskStore.getTask(taskId);
    if (!task) return undefined;
    await seedSeq(taskId);
    const again = sessions.get(taskId);
    if (again) return again;
    if (task.selectedClientId && !registry.selectionOf(taskId)) registry.select(taskId, task.selectedClientId);
    const restored = restoredTaskOf(task);
    if (restored.status !== task.status) await taskStore.updateTask(taskId, restoredPatchOf(restored));
    const requests = options.confirmSteps
      ? (await taskStore.listMessages(taskId)).filter((m) => m.role === 'user')
      : [];
    const session = sessions.get(taskId) ?? createSession(taskId, restored.status === 'created' ? undefined : restored);
    // The scope is the person's words: rebuilt from their stored messages.
    session.title ??= task.title;
    for (const m of requests) session.guard?.noteRequest(m.content);
    return session;
  }

  async function noteToTask(taskId: string, message: string, interrupted = false): Promise<void> {
    // Told at once when the task's order is known here (stop tells its note before what it cancels).
    if (!events.seq.has(taskId)) await seedSeq(taskId);
    if (interrupted) {
      // Stored as the turn's outcome: the web shows "Interrupted" with this cause, live and after a reload.
      const error = errorValue('TASK_INTERRUPTED', message, { retryable: true });
      const { seq } = events.toTask(taskId, {
        type: 'structuredOutput',
        status: 'error',
        message,
        error: { code: error.code, message, retryable: true },
      });
      await taskStore
        .appendMessage(
          taskId,
          failureNoteOf(error, { id: `msg-${nanoid(12)}`, timestamp: clock.now(), seq: seq ?? 0 }, 'interrupted'),
        )
        .catch(() => {});
      return;
    }
    const { seq } = events.toTask(taskId, { type: 'structuredOutput', status: 'info', message });
    await taskStore
      .appendMessage(taskId, {
        id: `msg-${nanoid(12)}`,
        role: 'system',
        content: message,
        timestamp: clock.now(),
        meta: { seq: seq ?? 0 },
      })
      .catch(() => {});
  }

  /** Retry (a failed task) or Resume (an interrupted one): its last user message runs again. */
  async function rerunLastMessage(taskId: string, session: TaskSession): Promise<ControlResult> {
    const messages = await taskStore.listMessages(taskId);
    const last = messages.findLast((m) => m.role === 'user');
    if (!last) return { ok: false, error: { code: 'CONFLICT', message: 'the task has no message to run again' } };
    session.actor.send({
      type: 'USER_MESSAGE',
      message: {
        id: last.id,
        content: last.content,
        ...(typeof last.meta?.traceId === 'string' ? { traceId: last.meta.traceId } : {}),
      },
    });
    log({ event: 'task_rerun', taskId });
    return controlOk({ status: taskStatusOf(session.actor.getSnapshot()) });
  }

  const recovery = createTaskRecovery({ taskStore, sessions, createSession, noteToTask });

  const control = {
    async userMessage(message: UserMessage, context: { traceId?: string } = {}): Promise<ControlResult> {
      // One traceId per user message (the client's, or a new one): the store, the LLM calls,
      // the plugin frames and the frontend events of its turn all carry it.
      const traceId = context.traceId ?? message.traceId ?? `trace-${message.id}`;
      // A browser chosen before the first message (select_extension on an id from GET /api/task/id) is stored with the task.
      const chosen = registry.selectionOf(message.taskId);
      const { task, created } = await taskStore.createTaskIfAbsent({
        taskId: message.taskId,
        title: titleFrom(message.content),
        ...(chosen ? { selectedClientId: chosen } : {}),
      });
      if (created)
        events.toAllFrontends({
          type: 'taskListChanged',
          taskId: task.taskId,
          status: task.status,
          title: task.title,
          createdAt: task.createdAt,
        });
      // The message's place in the task's order is taken before it is stored (a duplicate leaves a gap).
      if (created) events.seq.seed(task.taskId, 0);
      else await seedSeq(task.taskId);
      const seq = events.seq.next(task.taskId);
      const appended = await taskStore.appendMessage(task.taskId, {
        id: message.id,
        role: 'user',
        content: message.content,
        timestamp: message.timestamp,
        meta: { traceId, seq },
      });
      if (!appended.appended) return controlOk({ taskId: task.taskId, duplicate: true });
      events.toTask(
        task.taskId,
        { type: 'userMessage', messageId: message.id, content: message.content, timestamp: message.timestamp },
        traceId,
        seq,
      );
      const session = await sessionFor(task.taskId);
      session!.title ??= task.title;
      session!.guard?.noteRequest(message.content);
      session!.actor.send({ type: 'USER_MESSAGE', message: { id: message.id, content: message.content, traceId } });
      return controlOk({ taskId: task.taskId, status: taskStatusOf(session!.actor.getSnapshot()), traceId });
    },
    /**
     * select_extension: the clientId must be a plugin this server knows; the choice is persisted as
     * the task's selectedClientId (GET /api/task/:id returns it, a restart keeps it) and the very
     * next action of the task goes to it.
     */
    async selectExtension(taskId: string, clientId: string): Promise<ControlResult> {
      if (!registry.get(clientId)) {
        return {
          ok: false,
          error: {
            code: 'NOT_FOUND',
            message: `no browser extension with clientId ${clientId} has connected to this server`,
          },
        };
      }
      // A task id from GET /api/task/id has no task before its first message: the choice is
      // held by the registry and stored with the task when that message creates it.
      const task = await taskStore.getTask(taskId);
      if (task) await taskStore.updateTask(taskId, { selectedClientId: clientId });
      registry.select(taskId, clientId);
      log({ event: 'extension_selected', taskId, clientId });
      return controlOk({ taskId, clientId, online: registry.isOnline(clientId) });
    },
    async takeover(taskId: string, source: 'web' | 'plugin', reason: string): Promise<ControlResult> {
      const tool = toolTree(taskId);
      if (tool) return controlToolTask(tool, { type: 'takeover', reason });
      const session = await sessionFor(taskId);
      if (!session) return taskNotFound(taskId);
      const before = taskStatusOf(session.actor.getSnapshot());
      session.actor.send({ type: 'TAKEOVER', reason });
      session.pageStale = true;
      const after = taskStatusOf(session.actor.getSnapshot());
      if (after !== 'takeover')
        return { ok: false, error: { code: 'CONFLICT', message: `a ${before} task cannot be taken over` } };
      log({ event: 'takeover', taskId, source, reason });
      await noteToTask(
        taskId,
        `The person took over (${source === 'web' ? 'from the web UI' : `in the tab: ${reason}`}); the agent waits.`,
      );
      return controlOk({ status: after });
    },
    async resume(taskId: string, source: 'web' | 'plugin'): Promise<ControlResult> {
      const tool = toolTree(taskId);
      if (tool) return controlToolTask(tool, { type: 'resume' });
      const session = await sessionFor(taskId);
      if (!session) return taskNotFound(taskId);
      if (taskStatusOf(session.actor.getSnapshot()) === 'error') return rerunLastMessage(taskId, session);
      if (taskStatusOf(session.actor.getSnapshot()) !== 'takeover')
        return {
          ok: false,
          error: { code: 'CONFLICT', message: 'the task is not in takeover (nor failed or interrupted)' },
        };
      // The note first (as stop's): RESUME may start the held step at once or a turn later, so a
      // note told after it would land before or after that step's start by chance (h22b's one order).
      // (Told synchronously: sessionFor seeded the task's seq; stored while RESUME runs.)
      const note = noteToTask(
        taskId,
        `The person handed control back to the agent (${source === 'web' ? 'web UI' : 'page overlay'}).`,
      );
      session.actor.send({ type: 'RESUME' });
      log({ event: 'resume', taskId, source });
      await note;
      return controlOk({ status: taskStatusOf(session.actor.getSnapshot()) });
    },
    async stop(taskId: string, source: 'web' | 'plugin', reason?: string): Promise<ControlResult> {
      const tool = toolTree(taskId);
      if (tool) return controlToolTask(tool, { type: 'stop' });
      const session = await sessionFor(taskId);
      if (!session) return taskNotFound(taskId);
      const clientId = session.browser.clientId;
      // STOP cancels what is in flight: the action child tells the plugin (task_stop) and settles
      // as canceled, queued actions settle unsent, the turn is stopped with the running state.
      const hadAction = actionInFlightOf(session.actor.getSnapshot()) !== null;
      // The note first: what the stop cancels (the step in flight, the turn) is told after it.
      const note = noteToTask(
        taskId,
        `Task stopped by the user (${source === 'web' ? 'web UI' : 'page overlay'})${reason ? `: ${reason}` : ''}.`,
      );
      session.guard?.denyAll();
      session.actor.send({ type: 'STOP' });
      // A stopped task's tab closes (and its tab group with its last tab). When an action was in
      // flight, the scheduler's cancel has already sent task_stop with closeTab.
      if (!hadAction && clientId && registry.isOnline(clientId)) {
        scheduler.stopOnPlugin(clientId, taskId, { closeTab: true });
      }
      await note;
      return controlOk({ status: 'completed' });
    },
    async takeoverReport(report: TakeoverReport): Promise<ControlResult> {
      if (!servedBy(report.taskId, report.clientId)) {
        return { ok: false, error: { code: 'INVALID_TASK_TAB', message: 'this plugin does not serve that task' } };
      }
      return control.takeover(report.taskId, 'plugin', report.reason);
    },
    async overlayCommand(command: OverlayCommand): Promise<ControlResult> {
      if (!servedBy(command.taskId, command.clientId)) {
        return { ok: false, error: { code: 'INVALID_TASK_TAB', message: 'this plugin does not serve that task' } };
      }
      return command.command === 'resume'
        ? control.resume(command.taskId, 'plugin')
        : control.stop(command.taskId, 'plugin');
    },
    async pageInterruption(report: PageInterruption): Promise<ControlResult> {
      if (!servedBy(report.taskId, report.clientId)) {
        return { ok: false, error: { code: 'INVALID_TASK_TAB', message: 'this plugin does not serve that task' } };
      }
      const { v: _v, type: _type, clientId: _clientId, traceId: _traceId, ...data } = report;
      const message = `In tab ${report.tabId}: ${report.message}.`;
      const { seq } = events.toTask(report.taskId, {
        type: 'structuredOutput',
        status: 'info',
        message,
        data: { pageInterruption: data },
      });
      await taskStore
        .appendMessage(report.taskId, {
          id: `msg-${nanoid(12)}`,
          role: 'system',
          content: message,
          timestamp: clock.now(),
          meta: { seq: seq ?? 0 },
        })
        .catch(() => {});
      log({ event: 'page_interruption', taskId: report.taskId, tabId: report.tabId, kind: report.kind });
      return controlOk({});
    },
    inspect(taskId: string, listener: (envelope: ReturnType<typeof events.envelope>) => void) {
      const send = (record: object) =>
        listener(events.envelope({ type: 'inspection', record: record as never }, taskId));
      for (const record of options.inspection.recent(taskId)) send(record);
      return options.inspection.subscribe(taskId, send);
    },
    restore: recovery.restore,
    resumeInterrupted: recovery.resumeInterrupted,
    /** Cluster mode: another node runs the task now; its actor here stops, nothing is persisted. */
    drop(taskId: string): void {
      const session = sessions.get(taskId);
      if (!session) return;
      sessions.delete(taskId);
      // Its tree too (task-trees.ts): takeover, STOP and tasks.run must not find a stopped actor here.
      const tree = tasks.get(taskId);
      if (tree?.kind === 'chat' && tree.actor === session.actor) tasks.remove(tree);
      session.actor.stop();
    },
    sessionOf: (taskId: string) => sessions.get(taskId),
    lateResult(result: NormalizedActionResult) {
      const session = result.taskId ? sessions.get(result.taskId) : undefined;
      if (session?.browser.lateResult(result.actionId, result))
        log({
          event: 'stopped_step_answered',
          taskId: result.taskId,
          actionId: result.actionId,
          status: result.status,
        });
    },
    // Replayed to a (re)subscribing client in the order they were told: the steps started, the
    // held steps waiting, and the scope (a fresh envelope, so last); a client checks order by time.
    stepsInFlight: (taskId: string) =>
      [...scheduler.registry.startedOf(taskId), ...person.personReplay(taskId, sessions.get(taskId))].sort(
        (a, b) => a.timestamp - b.timestamp,
      ),
    confirmationAnswer: person.confirmationAnswer,
    setTaskScope: person.setTaskScope,
    setTaskSecret: person.setTaskSecret,
    showTaskTab: person.showTaskTab,
    async overlayConfirmation(answer: PluginConfirmationAnswer): Promise<ControlResult> {
      const session = sessions.get(answer.taskId);
      if (!session || session.browser.clientId !== answer.clientId)
        return { ok: false, error: { code: 'INVALID_TASK_TAB', message: 'this plugin does not serve that task' } };
      return person.confirmationAnswer(answer.taskId, answer.requestId, answer.decision, 'overlay');
    },
    liveTarget: (taskId: string) => {
      const tree = tasks.get(taskId);
      const clientId = tree?.clientId();
      const tabId = tree?.tabId() ?? null;
      return clientId && tabId !== null ? { clientId, tabId } : null;
    },
  };
  return control;
}
