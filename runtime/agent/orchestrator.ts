// AgentOrchestrator (seed 000 §1, §3): user_message -> idempotent task create -> persist ->
// taskMachine to running -> the turn (LLM <-> browser tools) -> chatDelta / toolUsed /
// structuredOutput / taskStatus to the web. Also takeover / resume / stop from the web or the
// page overlay, live inspection, and the restore of interrupted tasks after a restart.
import { createActor, fromPromise, type Actor } from 'xstate';
import { nanoid } from 'nanoid';
import { taskMachine, taskStatusOf, uiStateForTask, actionInFlightOf, type TaskStatus } from '../../machines/index.ts';
import { pluginUiStateFrame, rooms, type OverlayCommand, type PageInterruption, type TakeoverReport, type UserMessage } from '../../transport/contracts/index.ts';
import type { LlmGateway, LlmMessage } from '../llm/llm-types.ts';
import type { RuntimeServices } from '../server.ts';
import type { ControlResult, TaskControl } from '../socket/task-control.ts';
import { createFinishedTabs } from './finished-tabs.ts';
import type { InspectionHub } from './inspection-hub.ts';
import { createPluginUiMirror, type PluginUiMirror } from './plugin-ui-mirror.ts';
import { createTaskBrowser, type TaskBrowser, type UrlCheck } from './task-browser.ts';
import { addTaskUsage, basicUrlCheck, titleFrom, toolMessageOf } from './task-history.ts';
import type { TaskUsage } from '../store/task-types.ts';
import { createTaskChildren } from './task-children.ts';
import { restoredContextOf, restoredTaskOf, type RestoredTask } from './task-restore.ts';
import { runTurn, TurnFailure } from './turn-runner.ts';

export interface OrchestratorOptions {
  llm: LlmGateway;
  inspection: InspectionHub;
  stepLimit?: number;
  llmTimeoutMs?: number;
  checkUrl?: UrlCheck;
  /** Re-checks the URL a page landed on (after redirects); a refusal stops the action. */
  checkFinalUrl?: UrlCheck;
  pagePrepBackoffMs?: readonly number[];
  /** Tokens of one step's page context (page + browser state); default 4000 (MIMO_CONTEXT_TOKENS). */
  contextTokens?: number;
  onTrace?(taskId: string, entry: Record<string, unknown>): void;
}

interface TaskSession {
  taskId: string;
  actor: Actor<typeof taskMachine>;
  browser: TaskBrowser;
  /** The user may have changed the page during a takeover: read it again before acting. */
  pageStale: boolean;
  /** The server's mirror of the extension's plugin-UI actor (inspected for the Machines tab). */
  mirror: PluginUiMirror;
}

const ok = (data?: Record<string, unknown>): ControlResult => ({ ok: true, ...(data ? { data } : {}) });
const notFound = (taskId: string): ControlResult => ({ ok: false, error: { code: 'NOT_FOUND', message: `task ${taskId} does not exist` } });

export { basicUrlCheck } from './task-history.ts';

export function createAgentOrchestrator(
  services: RuntimeServices,
  options: OrchestratorOptions,
): TaskControl & { restore(): Promise<number>; resumeInterrupted(taskId: string, note: string): Promise<ControlResult>; sessionOf(taskId: string): TaskSession | undefined } {
  const { taskStore, events, scheduler, registry, clock, log } = services;
  const sessions = new Map<string, TaskSession>();
  const stepLimit = options.stepLimit ?? 20;
  const finishedTabs = createFinishedTabs();

  function tellPlugin(session: TaskSession, status: TaskStatus): void {
    const clientId = session.browser.clientId;
    if (!clientId) return;
    const state = uiStateForTask(status, actionInFlightOf(session.actor.getSnapshot()) !== null);
    services.nsp.to(rooms.client(clientId)).emit(
      'plugin_message',
      pluginUiStateFrame({ taskId: session.taskId, clientId, timestamp: clock.now(), state, ...(session.browser.tabId !== null ? { tabId: session.browser.tabId } : {}) }),
    );
  }

  async function historyBefore(taskId: string, messageId: string): Promise<LlmMessage[]> {
    const messages = await taskStore.listMessages(taskId);
    const out: LlmMessage[] = [];
    for (const m of messages) {
      if (m.id === messageId) break;
      if (m.role === 'user' || m.role === 'assistant') out.push({ role: m.role, content: m.content });
    }
    return out.slice(-20);
  }

  function createSession(taskId: string, restored?: RestoredTask): TaskSession {
    let session!: TaskSession;
    let previous: TaskStatus | undefined = restored?.status;
    const mirror = createPluginUiMirror(taskId, options.inspection.observerFor(taskId));
    if (restored?.status) mirror.status(restored.status);
    const children = createTaskChildren({ send: (event) => session.actor.send(event), durationOf: (actionId) => scheduler.takeDuration(actionId) });
    const toolIds = new Set<string>();
    /** A page-prep retry reuses its actionId: its second history row gets a suffix. */
    const toolMessageId = (actionId: string) => {
      let id = `tool-${actionId}`;
      for (let n = 2; toolIds.has(id); n++) id = `tool-${actionId}-${n}`;
      toolIds.add(id);
      return id;
    };
    const inspect = options.inspection.observerFor(taskId);
    const browser = createTaskBrowser({
      taskId,
      groupTitle: () => `Mimo ${taskId.slice(-6)}`,
      // The task actor runs each action and page preparation as its child.
      runAction: children.runAction,
      preparePage: children.preparePage,
      inputOf: (request) => scheduler.inputOf(request),
      registry,
      artifacts: services.artifacts,
      snapshots: services.snapshots,
      events,
      inspect,
      clock,
      checkUrl: options.checkUrl ?? basicUrlCheck,
      secrets: services.secrets,
      onPageRead: () => {
        if (session) session.pageStale = false;
      },
      ...(options.checkFinalUrl ? { checkFinalUrl: options.checkFinalUrl } : {}),
      onStepDone: (record) => {
        void taskStore
          .appendMessage(taskId, toolMessageOf(record, { id: toolMessageId(record.actionId), timestamp: clock.now(), traceId: session.browser.traceId }))
          .catch((error) => log({ event: 'persist_step_failed', taskId, error: String(error) }));
      },
      ...(options.pagePrepBackoffMs ? { pagePrepBackoffMs: options.pagePrepBackoffMs } : {}),
    });
    const machine = taskMachine.provide({
      actors: {
        runAction: scheduler.actionLogic,
        preparePage: browser.pagePrepLogic,
        runTurn: fromPromise(async ({ input, signal }) => {
          const message = input.message;
          session.browser.beginTurn(message.traceId);
          try {
            if (session.pageStale && session.browser.tabId !== null) {
              session.pageStale = false;
              await session.browser.readPage({ toolCallId: `reread-${nanoid(8)}`, signal });
            }
            const result = await runTurn(
              {
                taskId,
                llm: options.llm,
                browser: session.browser,
                events,
                stepLimit,
                ...(options.llmTimeoutMs ? { llmTimeoutMs: options.llmTimeoutMs } : {}),
                history: await historyBefore(taskId, message.id),
                snapshotOf: (clientId) => services.snapshots.state(clientId),
                hideTab: (tab) => finishedTabs.hides(tab),
                ...(options.contextTokens ? { contextTokens: options.contextTokens } : {}),
                onUsage: (usage) => void addUsage(taskId, usage).catch((error) => log({ event: 'persist_usage_failed', taskId, error: String(error) })),
                ...(options.onTrace ? { onTrace: (entry: Record<string, unknown>) => options.onTrace!(taskId, entry) } : {}),
              },
              message,
              signal,
            );
            if (result.text) {
              await taskStore.appendMessage(taskId, {
                id: `msg-${nanoid(12)}`,
                role: 'assistant',
                content: result.text,
                timestamp: clock.now(),
                ...(message.traceId ? { meta: { traceId: message.traceId } } : {}),
              });
            }
          } catch (error) {
            if (signal.aborted) {
              events.toTask(taskId, { type: 'chatDelta', sender: 'assistant', targetEventId: message.id, finished: true, delta: { content: '' } });
              return;
            }
            const value = error instanceof TurnFailure ? error.error : { code: 'INTERNAL', message: String((error as Error)?.message ?? error), retryable: false };
            events.toTask(taskId, { type: 'structuredOutput', status: 'error', error: { code: value.code, message: value.message, retryable: value.retryable ?? false } });
            events.toTask(taskId, { type: 'chatDelta', sender: 'assistant', targetEventId: message.id, finished: true, delta: { content: '' } });
            log({ event: 'turn_failed', taskId, error: value });
            throw value;
          }
        }),
      },
      actions: {
        ...children.provided,
        // The plugin-UI mirror hears every action start and settle too.
        actionStarted: (args: unknown, params: { actionId: string }) => {
          mirror.actionStarted(params.actionId);
          children.provided.actionStarted(args, params);
        },
        actionSettled: (args: unknown, params: Parameters<typeof children.provided.actionSettled>[1]) => {
          mirror.actionSettled(params.actionId);
          children.provided.actionSettled(args, params);
        },
        persistStatus: (_, params) => {
          void taskStore.updateTask(params.taskId, { status: params.status }).catch((error) => log({ event: 'persist_status_failed', taskId, error: String(error) }));
        },
        notifyStatus: (_, params) => {
          events.toTask(taskId, { type: 'taskStatus', status: params.status, ...(previous ? { previous } : {}) });
          previous = params.status;
          mirror.status(params.status);
          // Every frontend's task list follows (tasks created or driven by another client).
          events.toAllFrontends({ type: 'taskListChanged', taskId, status: params.status });
          if (session && (params.status === 'completed' || params.status === 'error')) finishedTabs.finish(taskId, { tabId: session.browser.tabId, groupId: session.browser.groupId });
          if (session) tellPlugin(session, params.status);
        },
      },
    });
    const snapshot = restored ? machine.resolveState({ value: restored.value, context: restoredContextOf(taskId, restored) }) : undefined;
    const actor = createActor(machine, { id: `task:${taskId}`, input: { taskId }, inspect, clock, ...(snapshot ? { snapshot } : {}) });
    session = { taskId, actor, browser, pageStale: false, mirror };
    finishedTabs.reopen(taskId);
    sessions.set(taskId, session);
    actor.start();
    return session;
  }

  const addUsage = (taskId: string, usage: TaskUsage) => addTaskUsage({ events, taskStore }, taskId, usage);

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
     * running. It is restored from the store as ongoing, the user is told, and a turn that had
     * not been answered is run again from its user message (its actions are idempotent there).
     */
    async resumeInterrupted(taskId: string, note: string): Promise<ControlResult> {
      const task = await taskStore.getTask(taskId);
      if (!task) return notFound(taskId);
      const messages = await taskStore.listMessages(taskId);
      let lastUser = -1;
      for (let i = messages.length - 1; i >= 0 && lastUser === -1; i--) if (messages[i]!.role === 'user') lastUser = i;
      const unanswered = lastUser !== -1 && !messages.slice(lastUser + 1).some((m) => m.role === 'assistant');
      // As after a restart (task-restore.ts), with the cluster's note instead of the restart's.
      const restored = restoredTaskOf(task);
      if (restored.status !== task.status) await taskStore.updateTask(taskId, { status: restored.status });
      await noteToTask(taskId, note);
      const session = sessions.get(taskId) ?? createSession(taskId, restored.status === 'created' ? undefined : restored);
      const rerun = task.status === 'running' && unanswered;
      if (rerun) session.actor.send({ type: 'USER_MESSAGE', message: { id: messages[lastUser]!.id, content: messages[lastUser]!.content } });
      return ok({ taskId, rerun });
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
