// AgentOrchestrator (seed 000 §1, §3): user_message -> idempotent task create -> persist ->
// taskMachine to running -> the turn (LLM <-> browser tools) -> chatDelta / toolUsed /
// structuredOutput / taskStatus to the web. Also takeover / resume / stop from the web or the
// page overlay, live inspection, and the restore of interrupted tasks after a restart.
import { createActor, fromPromise, type Actor } from 'xstate';
import { nanoid } from 'nanoid';
import { taskMachine, taskStatusOf, uiStateForTask, actionInFlightOf, type TaskStatus } from '../../machines/index.ts';
import { rooms, toolResultError, toolResultOk, type OverlayCommand, type TakeoverReport, type UserMessage } from '../../transport/contracts/index.ts';
import type { LlmGateway, LlmMessage } from '../llm/llm-types.ts';
import type { RuntimeServices } from '../server.ts';
import type { ControlResult, TaskControl } from '../socket/task-control.ts';
import { createActionGate, TaskEndedError } from './action-gate.ts';
import { createPluginUiMirror, mirroredGate, type PluginUiMirror } from './plugin-ui-mirror.ts';
import type { InspectionHub } from './inspection-hub.ts';
import { createTaskBrowser, type TaskBrowser, type UrlCheck } from './task-browser.ts';
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

export const basicUrlCheck: UrlCheck = async (url) => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: { code: 'SCHEMA_VALIDATION_FAILED', message: `"${url}" is not an absolute URL`, retryable: false } };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, error: { code: 'URL_BLOCKED', message: `only http(s) URLs can be opened, not ${parsed.protocol}`, retryable: false } };
  }
  return { ok: true };
};

function titleFrom(content: string): string {
  const line = content.split('\n').find((l) => l.trim())?.trim() ?? 'New task';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export function createAgentOrchestrator(services: RuntimeServices, options: OrchestratorOptions): TaskControl & { restore(): Promise<number>; sessionOf(taskId: string): TaskSession | undefined } {
  const { taskStore, events, scheduler, registry, clock, log } = services;
  const sessions = new Map<string, TaskSession>();
  const stepLimit = options.stepLimit ?? 20;

  function tellPlugin(session: TaskSession, status: TaskStatus): void {
    const clientId = session.browser.clientId;
    if (!clientId) return;
    const state = uiStateForTask(status, actionInFlightOf(session.actor.getSnapshot()) !== null);
    services.nsp.to(rooms.client(clientId)).emit('plugin_message', {
      v: 1,
      type: 'plugin_ui_state',
      taskId: session.taskId,
      clientId,
      timestamp: clock.now(),
      state,
      ...(session.browser.tabId !== null ? { tabId: session.browser.tabId } : {}),
    });
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

  function createSession(taskId: string, restoredStatus?: TaskStatus): TaskSession {
    let session!: TaskSession;
    let previous: TaskStatus | undefined = restoredStatus;
    const mirror = createPluginUiMirror(taskId, options.inspection.observerFor(taskId));
    if (restoredStatus) mirror.status(restoredStatus);
    const machine = taskMachine.provide({
      actors: {
        runTurn: fromPromise(async ({ input, signal }) => {
          const message = input.message;
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
                onUsage: (usage) => void addUsage(taskId, usage).catch((error) => log({ event: 'persist_usage_failed', taskId, error: String(error) })),
                ...(options.onTrace ? { onTrace: (entry: Record<string, unknown>) => options.onTrace!(taskId, entry) } : {}),
              },
              message,
              signal,
            );
            if (result.text) {
              await taskStore.appendMessage(taskId, { id: `msg-${nanoid(12)}`, role: 'assistant', content: result.text, timestamp: clock.now() });
            }
          } catch (error) {
            if (error instanceof TaskEndedError || signal.aborted) {
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
        persistStatus: (_, params) => {
          void taskStore.updateTask(params.taskId, { status: params.status, machineSnapshot: JSON.parse(JSON.stringify(session.actor.getPersistedSnapshot())) }).catch((error) =>
            log({ event: 'persist_status_failed', taskId, error: String(error) }),
          );
        },
        notifyStatus: (_, params) => {
          events.toTask(taskId, { type: 'taskStatus', status: params.status, ...(previous ? { previous } : {}) });
          events.toAllFrontends({ type: 'taskListChanged', taskId, status: params.status }, taskId);
          previous = params.status;
          mirror.status(params.status);
          if (session) tellPlugin(session, params.status);
        },
      },
    });
    const inspect = options.inspection.observerFor(taskId);
    const snapshot =
      restoredStatus === 'ongoing'
        ? machine.resolveState({
            value: { ongoing: 'idle' },
            context: { taskId, currentMessage: null, queue: [], inFlightActionId: null, turns: 0, error: null, reportedStatus: 'ongoing' },
          })
        : undefined;
    const actor = createActor(machine, { id: `task:${taskId}`, input: { taskId }, inspect, ...(snapshot ? { snapshot } : {}) });
    const gate = mirroredGate(createActionGate(actor), mirror);
    const browser = createTaskBrowser({
      taskId,
      groupTitle: () => `Mimo ${taskId.slice(-6)}`,
      scheduler,
      registry,
      artifacts: services.artifacts,
      snapshots: services.snapshots,
      events,
      gate,
      inspect,
      checkUrl: options.checkUrl ?? basicUrlCheck,
      onPageRead: () => {
        if (session) session.pageStale = false;
      },
      ...(options.checkFinalUrl ? { checkFinalUrl: options.checkFinalUrl } : {}),
      onStepDone: (record) => {
        const content = JSON.stringify(
          record.ok
            ? toolResultOk(record.toolCallId, record.actionName, record.result ?? {}, Array.isArray(record.result?.warnings) ? { warnings: record.result.warnings as string[] } : {})
            : toolResultError(record.toolCallId, record.actionName, {
                code: record.error?.code ?? 'INTERNAL',
                message: record.error?.message ?? 'the action failed',
                retryable: record.error?.retryable ?? false,
              }),
        );
        void taskStore
          .appendMessage(taskId, {
            id: `tool-${record.actionId}`,
            role: 'tool',
            content,
            timestamp: clock.now(),
            meta: { toolCallId: record.toolCallId, actionId: record.actionId, actionName: record.actionName, paramsSummary: record.paramsSummary, durationMs: record.durationMs, ok: record.ok, ...(record.target ? { target: record.target } : {}) },
          })
          .catch((error) => log({ event: 'persist_step_failed', taskId, error: String(error) }));
      },
      ...(options.pagePrepBackoffMs ? { pagePrepBackoffMs: options.pagePrepBackoffMs } : {}),
    });
    session = { taskId, actor, browser, pageStale: false, mirror };
    sessions.set(taskId, session);
    actor.start();
    return session;
  }

  async function addUsage(taskId: string, usage: { promptTokens: number; completionTokens: number; totalTokens: number }) {
    // One event per LLM call with that call's tokens, sent at once; the task total is their sum,
    // stored afterwards as task.usage.
    events.toTask(taskId, { type: 'usage', ...usage });
    const task = await taskStore.getTask(taskId);
    const before = task?.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    await taskStore.updateTask(taskId, {
      usage: {
        promptTokens: before.promptTokens + usage.promptTokens,
        completionTokens: before.completionTokens + usage.completionTokens,
        totalTokens: before.totalTokens + usage.totalTokens,
      },
    });
  }

  async function sessionFor(taskId: string): Promise<TaskSession | undefined> {
    const live = sessions.get(taskId);
    if (live && live.actor.getSnapshot().status === 'active') return live;
    const task = await taskStore.getTask(taskId);
    if (!task) return undefined;
    const status = task.status as TaskStatus;
    return createSession(taskId, status === 'ongoing' || status === 'running' || status === 'takeover' ? 'ongoing' : undefined);
  }

  async function noteToTask(taskId: string, message: string): Promise<void> {
    events.toTask(taskId, { type: 'structuredOutput', status: 'info', message });
    await taskStore.appendMessage(taskId, { id: `msg-${nanoid(12)}`, role: 'system', content: message, timestamp: clock.now() }).catch(() => {});
  }

  const control = {
    async userMessage(message: UserMessage): Promise<ControlResult> {
      const { task, created } = await taskStore.createTaskIfAbsent({ taskId: message.taskId, title: titleFrom(message.content) });
      if (created) events.toAllFrontends({ type: 'taskListChanged', taskId: task.taskId, status: task.status, title: task.title, createdAt: task.createdAt }, task.taskId);
      const appended = await taskStore.appendMessage(task.taskId, { id: message.id, role: 'user', content: message.content, timestamp: message.timestamp });
      if (!appended.appended) return ok({ taskId: task.taskId, duplicate: true });
      const session = await sessionFor(task.taskId);
      session!.actor.send({ type: 'USER_MESSAGE', message: { id: message.id, content: message.content } });
      return ok({ taskId: task.taskId, status: taskStatusOf(session!.actor.getSnapshot()) });
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
      session.mirror.stop();
      session.actor.send({ type: 'STOP' });
      await noteToTask(taskId, `Task stopped by the user (${source === 'web' ? 'web UI' : 'page overlay'})${reason ? `: ${reason}` : ''}.`);
      if (clientId && registry.isOnline(clientId)) {
        void scheduler.run({ taskId, clientId, actionName: 'task_stop', params: { closeTab: false } }).catch(() => {});
      }
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
    inspect(taskId: string, listener: (envelope: ReturnType<typeof events.envelope>) => void) {
      const send = (record: object) => listener(events.envelope({ type: 'inspection', record: record as never }, taskId));
      for (const record of options.inspection.recent(taskId)) send(record);
      return options.inspection.subscribe(taskId, send);
    },
    /** Tasks found running after a restart become ongoing, with a note; nothing stored is lost. */
    async restore(): Promise<number> {
      let restored = 0;
      for (const task of await taskStore.listTasks()) {
        if (task.status !== 'running' && task.status !== 'takeover') continue;
        await taskStore.updateTask(task.taskId, { status: 'ongoing' });
        await noteToTask(task.taskId, 'The server restarted while this task was running. It is waiting for your next message.');
        restored++;
      }
      return restored;
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
