// createAppState: the whole UI's state, composed from the models, with the IO that connects them
// (HTTP API, socket link) passed in. Components read its signals and call its named actions;
// tests drive it with a fake API and a fake link, without a DOM.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { LiveFrame } from '../../transport/contracts/live-view.ts';
import type { TaskSummary } from '../../transport/contracts/http.ts';
import type { AckResult } from './io/ack.ts';
import type { ApiClient, ApiError } from './io/api-client.ts';
import { createMessageFactory } from './io/frontend-messages.ts';
import type { SocketLink } from './io/socket-link.ts';
import { createChatModel, type ChatModel } from './models/chat-model.ts';
import { createConnectionModel, type ConnectionModel } from './models/connection-model.ts';
import { createExtensionModel, type ExtensionModel } from './models/extension-model.ts';
import { createInspectionModel, type InspectionModel } from './models/inspection-model.ts';
import { createSnapshotModel, tabIdFromParams, type SnapshotModel } from './models/snapshot-model.ts';
import { createTaskListModel, type TaskListModel } from './models/task-list-model.ts';
import { createTaskStatusModel, type TaskStatusModel } from './models/task-status-model.ts';
import { createTurnOutcomeModel, type TurnOutcomeModel } from './models/turn-outcome-model.ts';
import { createPersonGuardModel, type PersonGuardModel } from './models/person-guard-model.ts';
import { createEventRouter } from './event-router.ts';
import type { Pricing } from './models/usage-model.ts';
import type { ExtensionSituation } from './text/error-words.ts';

/** What the narrow (phone-width) layout shows; the wide layout shows all three. */
export type Pane = 'tasks' | 'chat' | 'panel';
export type SidePanel = 'browser' | 'machines';

export interface LiveLink {
  send(type: 'subscribe_live' | 'unsubscribe_live', taskId: string): Promise<AckResult>;
  onFrame(listener: (frame: LiveFrame, done: () => void) => void): () => void;
  clock: { now(): number };
}

export interface AppDeps {
  api: ApiClient;
  link: SocketLink;
  clock: { now(): number };
  newId: () => string;
  pricing?: Pricing;
}

export interface AppState {
  connection: ConnectionModel;
  tasks: TaskListModel;
  chat: ChatModel;
  status: TaskStatusModel;
  /** How the open task's last turn ended when it failed or was interrupted (its cause). */
  outcome: TurnOutcomeModel;
  /** Steps waiting for the person's yes, the task's scope, Show the tab. */
  person: PersonGuardModel;
  snapshot: SnapshotModel;
  extensions: ExtensionModel;
  inspection: InspectionModel;
  /** The live view's link (its model is built with the lazily loaded live view panel). */
  liveLink: LiveLink;
  now: ReadonlySignal<number>;
  currentTaskId: ReadonlySignal<string | null>;
  currentTask: ReadonlySignal<TaskSummary | null>;
  taskLoading: ReadonlySignal<boolean>;
  taskError: ReadonlySignal<ApiError | null>;
  pane: ReadonlySignal<Pane>;
  panel: ReadonlySignal<SidePanel>;
  /** For wording PLUGIN_OFFLINE: no extension ever seen, known ones all disconnected, or some connected. */
  extensionSituation: ReadonlySignal<ExtensionSituation>;
  /** Sends the last message of the open task again (a stopped or failed task reopens with it). */
  retryTurn(): Promise<AckResult | null>;
  /** Shows the browser panel (extension picker and connect steps), on a phone too. */
  showExtensions(): void;
  start(initialTaskId?: string | null): Promise<void>;
  /** `fresh`: an id just minted by GET /api/task/id, which has no record to read yet. */
  openTask(taskId: string, fresh?: boolean): Promise<void>;
  newTask(): Promise<string | null>;
  send(content: string): Promise<AckResult | null>;
  retry(messageId: string): Promise<AckResult | null>;
  showPane(pane: Pane): void;
  showPanel(panel: SidePanel): void;
  /** Called every few seconds: advances `now` and polls the extension list. */
  tick(): void;
  dispose(): void;
}

const EXTENSION_POLL_MS = { none: 5_000, some: 30_000 };

export function createAppState(deps: AppDeps): AppState {
  const { api, link } = deps;
  const build = createMessageFactory(deps);
  const now = signal(deps.clock.now());
  const currentTaskId = signal<string | null>(null);
  const taskLoading = signal(false);
  const taskError = signal<ApiError | null>(null);
  const pane = signal<Pane>('chat');
  const panel = signal<SidePanel>('browser');
  let lastExtensionPoll = deps.clock.now();
  let creating: Promise<string | null> | null = null;
  const cleanups: (() => void)[] = [];

  const withTask = <T>(fn: (taskId: string) => Promise<T>): Promise<T> | null =>
    currentTaskId.value ? fn(currentTaskId.value) : null;
  const noTask: AckResult = { ok: false, error: { code: 'BAD_REQUEST', message: 'no task is open' } };

  const connection = createConnectionModel();
  const tasks = createTaskListModel({ api });
  const chat = createChatModel(deps.pricing ? { pricing: deps.pricing } : {});
  const snapshot = createSnapshotModel({ now });
  const inspection = createInspectionModel();
  const outcome = createTurnOutcomeModel();
  const status = createTaskStatusModel({
    send: (type) => withTask((taskId) => link.send(build(type, taskId))) ?? Promise.resolve(noTask),
  });
  const person = createPersonGuardModel({
    answer: (requestId, decision) =>
      withTask((taskId) => link.send(build('confirmation_answer', taskId, { requestId, decision }))) ??
      Promise.resolve(noTask),
    setScope: (sites) =>
      withTask((taskId) => link.send(build('set_task_scope', taskId, { sites }))) ?? Promise.resolve(noTask),
    showTab: () => withTask((taskId) => link.send(build('show_task_tab', taskId))) ?? Promise.resolve(noTask),
    setSecret: (name, value) =>
      withTask((taskId) => link.send(build('set_task_secret', taskId, { name, value }))) ?? Promise.resolve(noTask),
  });
  const extensions = createExtensionModel({
    api,
    sendSelect: (clientId) => withTask((taskId) => link.send(build('select_extension', taskId, { clientId }))),
  });

  // `tasks.find` reads the list's signal, so this follows the list too.
  const currentTask = computed(() => (currentTaskId.value ? (tasks.find(currentTaskId.value) ?? null) : null));

  async function loadTask(taskId: string) {
    taskLoading.value = true;
    const result = await api.getTask(taskId);
    if (currentTaskId.value !== taskId) return;
    taskLoading.value = false;
    if (!result.ok) {
      // A task id fresh from GET /api/task/id has no record until its first message.
      taskError.value = result.error.code === 'NOT_FOUND' ? null : result.error;
      return;
    }
    taskError.value = null;
    const { task, messages } = result.data;
    tasks.upsert(task);
    chat.loadHistory(messages);
    const lastTab = chat.items.value
      .flatMap((i) => (i.kind === 'tool' ? [tabIdFromParams(i.paramsSummary)] : []))
      .filter((t) => t !== null)
      .pop();
    if (lastTab !== undefined) snapshot.setTaskTab(lastTab);
    status.setFromSummary(task.status, task.updatedAt);
    outcome.fromHistory(messages, task.status);
    if (status.finished.value) chat.cancelRunning();
    extensions.setBound(task.selectedClientId);
  }

  async function refetchSnapshot() {
    const ticket = snapshot.beginRefetch();
    const result = await api.getSnapshot();
    if (result.ok) snapshot.applyFetched(ticket, result.data);
  }

  function subscribe(taskId: string) {
    void link.send(build('subscribe_task', taskId));
    if (panel.value === 'machines') void link.send(build('subscribe_inspection', taskId));
  }

  const onEvent = createEventRouter({ currentTaskId, tasks, chat, snapshot, status, outcome, inspection, person });

  async function deliver(id: string, content: string, taskId: string): Promise<AckResult> {
    const message = { ...build('user_message', taskId, { content }), id };
    const result = await link.send(message);
    chat.setDelivery(id, result.ok ? 'sent' : 'failed', result.ok ? undefined : result.error);
    if (result.ok && currentTaskId.value === taskId) void tasks.refresh();
    return result;
  }

  const extensionSituation = computed<ExtensionSituation>(() =>
    extensions.connected.value.length > 0
      ? 'connected'
      : extensions.list.value.length > 0
        ? 'disconnected'
        : 'none-ever',
  );

  const app: AppState = {
    extensionSituation,
    liveLink: {
      send: (type, taskId) => link.send(build(type, taskId)),
      onFrame: (listener) => link.onLiveFrame(listener),
      clock: deps.clock,
    },
    async retryTurn() {
      const last = [...chat.items.value].reverse().find((i) => i.kind === 'user');
      if (!last || last.kind !== 'user') return null;
      return app.send(last.content);
    },
    showExtensions() {
      app.showPanel('browser');
      pane.value = 'panel';
    },
    connection,
    tasks,
    chat,
    status,
    outcome,
    person,
    snapshot,
    extensions,
    inspection,
    now,
    currentTaskId,
    currentTask,
    taskLoading,
    taskError,
    pane,
    panel,
    async start(initialTaskId) {
      cleanups.push(link.onEvent(onEvent));
      cleanups.push(
        link.onStatus((report) => {
          const connected = connection.apply(report);
          if (!connected) return;
          if (currentTaskId.value) subscribe(currentTaskId.value);
          if (connected.reconnected) {
            void refetchSnapshot();
            void tasks.refresh();
            void extensions.refresh();
            if (currentTaskId.value) void loadTask(currentTaskId.value);
          }
        }),
      );
      link.connect();
      const opening = initialTaskId ? app.openTask(initialTaskId) : Promise.resolve();
      await Promise.all([tasks.refresh(), extensions.refresh(), refetchSnapshot(), opening]);
    },
    async openTask(taskId, fresh = false) {
      const previous = currentTaskId.value;
      if (previous === taskId) return;
      if (previous) {
        void link.send(build('unsubscribe_task', previous));
        if (panel.value === 'machines') void link.send(build('unsubscribe_inspection', previous));
      }
      currentTaskId.value = taskId;
      taskError.value = null;
      chat.reset();
      outcome.reset();
      inspection.reset();
      snapshot.setTaskTab(null);
      const known = tasks.find(taskId);
      status.reset(known?.status ?? null, known?.updatedAt);
      person.reset();
      extensions.setBound(known?.selectedClientId);
      pane.value = 'chat';
      // Subscribe first, then read history: an event in between is merged, not lost.
      if (link.connected) subscribe(taskId);
      // A fresh id has no record until its first message: reading it would only log a 404.
      if (!fresh) await loadTask(taskId);
    },
    newTask() {
      // A message typed while the new id is on its way belongs to the new task, not the old one.
      creating ??= (async () => {
        const result = await api.newTaskId();
        if (!result.ok) {
          taskError.value = result.error;
          return null;
        }
        await app.openTask(result.data.taskId, true);
        return result.data.taskId;
      })().finally(() => (creating = null));
      return creating;
    },
    async send(text) {
      const content = text.trim();
      if (content === '') return null;
      const taskId = creating ? await creating : (currentTaskId.value ?? (await app.newTask()));
      if (!taskId) return null;
      const message = build('user_message', taskId, { content });
      chat.addUserMessage(message.id, content, message.timestamp);
      if (!tasks.find(taskId)) {
        tasks.upsert({
          taskId,
          title: content.slice(0, 80),
          status: 'created',
          createdAt: message.timestamp,
          updatedAt: message.timestamp,
        });
      }
      return deliver(message.id, content, taskId);
    },
    async retry(messageId) {
      const taskId = currentTaskId.value;
      const item = chat.items.value.find((i) => i.kind === 'user' && i.id === messageId);
      if (!taskId || !item || item.kind !== 'user' || item.delivery !== 'failed') return null;
      chat.setDelivery(messageId, 'sending');
      return deliver(messageId, item.content, taskId);
    },
    showPane(next) {
      pane.value = next;
    },
    showPanel(next) {
      const previous = panel.value;
      panel.value = next;
      const taskId = currentTaskId.value;
      if (!taskId || previous === next) return;
      if (next === 'machines') void link.send(build('subscribe_inspection', taskId));
      else if (previous === 'machines') void link.send(build('unsubscribe_inspection', taskId));
    },
    tick() {
      now.value = deps.clock.now();
      const every = extensions.viewState.value === 'none' ? EXTENSION_POLL_MS.none : EXTENSION_POLL_MS.some;
      if (now.value - lastExtensionPoll >= every) {
        lastExtensionPoll = now.value;
        void extensions.refresh();
      }
    },
    dispose() {
      cleanups.splice(0).forEach((stop) => stop());
      link.close();
    },
  };
  return app;
}
