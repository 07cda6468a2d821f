// One agent task's live session: its TaskBrowser (tab, actions, page reads) and its task actor,
// whose turn (LLM <-> browser tools), actions and page preparations run as children in one
// actor system. The status changes it reports go to the store, the web, the task list, the
// plugin's UI and the finished-tabs list. Built by the orchestrator (orchestrator.ts), once per
// task (after a restart: from what is stored, see task-restore.ts).
import { createActor, fromPromise, type Actor } from 'xstate';
import { nanoid } from 'nanoid';
import {
  taskMachine,
  uiStateForTask,
  actionInFlightOf,
  type ErrorValue,
  type TaskStatus,
} from '../../machines/index.ts';
import { pluginUiStateFrame, rooms } from '../../transport/contracts/index.ts';
import type { LlmGateway, LlmMessage } from '../llm/llm-types.ts';
import type { RuntimeServices } from '../services/runtime-services.ts';
import type { TaskUsage } from '../store/task-types.ts';
import type { FinishedTabs } from './finished-tabs.ts';
import type { InspectionHub } from './inspection-hub.ts';
import { createTaskBrowser, type TaskBrowser, type UrlCheck } from './task-browser.ts';
import { basicUrlCheck, conversationBefore, createUsageAccumulator, toolMessageOf } from './task-history.ts';
import { createTaskChildren } from './task-children.ts';
import { actionEffectsTellingStarts } from './action-starts.ts';
import { restoredContextOf, type RestoredTask } from './task-restore.ts';
import { assistantOrder, runTurn, TurnFailure } from './turn-runner.ts';
import { failureNoteOf, turnOutcomeOf } from './turn-failure-note.ts';
import { createPersonGuard, type PersonGuard } from './person-guard.ts';
import { groupTitleOf } from './group-title.ts';

/** Tool message ids remembered per task (see toolMessageId). */
const RECENT_TOOL_IDS = 16;

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
  /**
   * The person's guard (person-guard.ts): task scope, steps held for a yes, secret
   * placeholders, page data marked untrusted. startMimo turns it on (`ask`); test harnesses that
   * build an orchestrator without it keep the old unguarded loop.
   */
  confirmSteps?: 'ask';
  onTrace?(taskId: string, entry: Record<string, unknown>): void;
}

export interface TaskSession {
  taskId: string;
  actor: Actor<typeof taskMachine>;
  browser: TaskBrowser;
  /** The user may have changed the page during a takeover: read it again before acting. */
  pageStale: boolean;
  /** Scope, confirmations and secrets of the task (absent when the orchestrator runs unguarded). */
  guard?: PersonGuard;
  /** The task's title (its tab group is named after it). */
  title?: string;
}

export interface TaskSessionContext {
  services: RuntimeServices;
  options: OrchestratorOptions;
  stepLimit: number;
  finishedTabs: FinishedTabs;
  /** The new session, registered before its actor starts (its first status change may look it up). */
  register(session: TaskSession): void;
}

export function createTaskSession(ctx: TaskSessionContext, taskId: string, restored?: RestoredTask): TaskSession {
  const { services, options, stepLimit, finishedTabs } = ctx;
  const { taskStore, events, scheduler, registry, clock, log } = services;
  const addUsage = createUsageAccumulator({ events, taskStore }, taskId);

  function tellPlugin(session: TaskSession, status: TaskStatus): void {
    const clientId = session.browser.clientId;
    if (!clientId) return;
    // A finished turn (ongoing) leaves the tab to the person: no overlay at all. `hidden` is kept for
    // between steps of a running turn, where the overlay shows only its Take over button.
    const state =
      status === 'ongoing' ? 'idle' : uiStateForTask(status, actionInFlightOf(session.actor.getSnapshot()) !== null);
    services.nsp.to(rooms.client(clientId)).emit(
      'plugin_message',
      pluginUiStateFrame({
        taskId: session.taskId,
        clientId,
        timestamp: clock.now(),
        state,
        ...(session.browser.tabId !== null ? { tabId: session.browser.tabId } : {}),
      }),
    );
  }

  const historyBefore = async (taskId: string, messageId: string): Promise<LlmMessage[]> =>
    conversationBefore(await taskStore.listMessages(taskId), messageId);

  /** The cause of a failed turn: to the web now, and stored (a reload shows it: turn-failure-note.ts). */
  async function reportFailure(value: ErrorValue, traceId?: string): Promise<void> {
    const error = { code: value.code, message: value.message, retryable: value.retryable ?? false };
    const { seq } = events.toTask(taskId, { type: 'structuredOutput', status: 'error', error }, traceId);
    log({ event: 'turn_failed', taskId, error: value });
    // Stored at the notice's place in the task's order.
    await taskStore
      .appendMessage(
        taskId,
        failureNoteOf(value, {
          id: `msg-${nanoid(12)}`,
          timestamp: clock.now(),
          ...(traceId ? { traceId } : {}),
          ...(seq !== undefined ? { seq } : {}),
        }),
      )
      .catch(() => {});
  }

  let session!: TaskSession;
  let previous: TaskStatus | undefined = restored?.status;
  const children = createTaskChildren({
    send: (event) => session.actor.send(event),
    registry: scheduler.registry,
    now: () => clock.now(),
    pagePrep: (input) => browser.pagePrepLogic(input),
  });
  /** The recent tool message ids: a retry comes right after its first try, so a few are enough, and a long task does not grow the set. */
  const toolIds = new Set<string>();
  /** A page-prep retry reuses its actionId: its second history row gets a suffix. */
  const toolMessageId = (actionId: string) => {
    let id = `tool-${actionId}`;
    for (let n = 2; toolIds.has(id); n++) id = `tool-${actionId}-${n}`;
    toolIds.add(id);
    if (toolIds.size > RECENT_TOOL_IDS) toolIds.delete(toolIds.values().next().value!);
    return id;
  };
  const inspect = options.inspection.observerFor(taskId);
  const guard = options.confirmSteps
    ? createPersonGuard({
        taskId,
        events,
        policy: 'ask',
        registerSecret: (value) => services.secrets.add(value),
        // The page overlay shows the waiting steps too (the plugin serving the task).
        waitingChanged: (waiting) => {
          const clientId = session?.browser.clientId;
          if (clientId)
            services.nsp.to(rooms.client(clientId)).emit('plugin_message', {
              v: 1,
              type: 'confirmation_state',
              taskId,
              clientId,
              timestamp: clock.now(),
              waiting,
            });
        },
        // Requests and answers are part of the conversation: shown now, and in the history.
        note: (text) => {
          // Stored with its seq like the orchestrator's notes (the history keeps its place in the task's order).
          const { seq } = events.toTask(taskId, { type: 'structuredOutput', status: 'info', message: text });
          void taskStore
            .appendMessage(taskId, {
              id: `msg-${nanoid(12)}`,
              role: 'system',
              content: text,
              timestamp: clock.now(),
              meta: { seq: seq ?? 0 },
            })
            .catch(() => {});
        },
      })
    : undefined;
  const browser = createTaskBrowser({
    taskId,
    groupTitle: () => groupTitleOf(session?.title, taskId),
    ...(guard ? { fillSecrets: guard.secrets.fill } : {}),
    // The task actor runs each action and page preparation as its child.
    runAction: children.runAction,
    reported: children.reported,
    preparePage: children.preparePage,
    inputOf: (request) => scheduler.inputOf(request),
    actionRegistry: scheduler.registry,
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
        .appendMessage(
          taskId,
          toolMessageOf(record, {
            id: toolMessageId(record.actionId),
            timestamp: clock.now(),
            traceId: session.browser.traceId,
          }),
        )
        .catch((error) => log({ event: 'persist_step_failed', taskId, error: String(error) }));
    },
    ...(options.pagePrepBackoffMs ? { pagePrepBackoffMs: options.pagePrepBackoffMs } : {}),
  });
  // An action starts with its first frame: the start is reported there (to the turn, before the
  // frame is written), in the task actor's own `sendFrame`. The plugin-UI mirror is a region of
  // the task machine (machines/plugin-ui-region.ts): it follows the task's own events.
  const actionEffects = actionEffectsTellingStarts(scheduler.actionEffects, (actionId) =>
    children.provided.actionStarted(undefined, { actionId }),
  );
  const machine = taskMachine.provide({
    actors: {
      runTurn: fromPromise(async ({ input, signal }) => {
        const message = input.message;
        let failed: ErrorValue | null = null;
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
              ...(session.guard ? { guard: session.guard } : {}),
              onUsage: (usage) =>
                void addUsage(usage).catch((error) =>
                  log({ event: 'persist_usage_failed', taskId, error: String(error) }),
                ),
              ...(options.onTrace
                ? { onTrace: (entry: Record<string, unknown>) => options.onTrace!(taskId, entry) }
                : {}),
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
              meta: {
                ...(message.traceId ? { traceId: message.traceId } : {}),
                replyTo: message.id,
                ...assistantOrder(result.segments),
              },
            });
          }
          // A turn that ended on a failure puts the task in `error` (seed 000 §2.1), with its cause.
          if (result.failure && !signal.aborted) {
            await reportFailure(result.failure, message.traceId);
            failed = result.failure;
          }
        } catch (error) {
          if (signal.aborted) {
            events.toTask(taskId, {
              type: 'chatDelta',
              sender: 'assistant',
              targetEventId: message.id,
              finished: true,
              delta: { content: '' },
            });
            return;
          }
          const value =
            error instanceof TurnFailure
              ? error.error
              : { code: 'INTERNAL', message: String((error as Error)?.message ?? error), retryable: false };
          await reportFailure(value, message.traceId);
          events.toTask(taskId, {
            type: 'chatDelta',
            sender: 'assistant',
            targetEventId: message.id,
            finished: true,
            delta: { content: '' },
          });
          throw value;
        }
        if (failed) throw failed;
      }),
    },
    actions: {
      ...actionEffects,
      ...children.provided,
      persistStatus: ({ context }, params) => {
        const outcome = params.status === 'error' ? { outcome: turnOutcomeOf(context.error) } : {};
        void taskStore
          .updateTask(params.taskId, { status: params.status, ...outcome })
          .catch((error) => log({ event: 'persist_status_failed', taskId, error: String(error) }));
      },
      notifyStatus: ({ context }, params) => {
        const outcome = params.status === 'error' ? { outcome: turnOutcomeOf(context.error) } : {};
        events.toTask(taskId, {
          type: 'taskStatus',
          status: params.status,
          ...(previous ? { previous } : {}),
          ...outcome,
        });
        previous = params.status;
        // Every frontend's task list follows (tasks created or driven by another client).
        events.toAllFrontends({ type: 'taskListChanged', taskId, status: params.status, ...outcome });
        if (session && (params.status === 'completed' || params.status === 'error'))
          finishedTabs.finish(taskId, { tabId: session.browser.tabId, groupId: session.browser.groupId });
        if (session) tellPlugin(session, params.status);
      },
    },
  });
  const snapshot = restored
    ? machine.resolveState({ value: restored.value, context: restoredContextOf(taskId, restored) })
    : undefined;
  const actor = createActor(machine, {
    id: `task:${taskId}`,
    input: { taskId },
    inspect,
    clock,
    ...(snapshot ? { snapshot } : {}),
  });
  session = { taskId, actor, browser, pageStale: false, ...(guard ? { guard } : {}) };
  finishedTabs.reopen(taskId);
  ctx.register(session);
  // One registry of live task trees: takeover, STOP and `tasks.run` find it by its id.
  services.tasks.add({
    taskId,
    kind: 'chat',
    actor,
    runAction: children.runAndReport,
    clientId: () => browser.clientId,
    tabId: () => browser.tabId,
  });
  actor.start();
  return session;
}
