// Shared test helpers for the web models: event builders, a fake HTTP API and a fake socket link.
import type { FrontendEvent, FrontendEventPayload } from '../../transport/contracts/frontend-event.ts';
import type { FrontendMessage } from '../../transport/contracts/frontend-message.ts';
import type { ExtensionListItem, SnapshotResponse, TaskDetail, TaskSummary } from '../../transport/contracts/http.ts';
import type { SnapshotState } from '../../transport/contracts/snapshot.ts';
import type { LiveFrame } from '../../transport/contracts/live-view.ts';
import type { AckResult } from '../src/io/ack.ts';
import type { ApiClient, ApiResult } from '../src/io/api-client.ts';
import type { LinkStatus, SocketLink } from '../src/io/socket-link.ts';

export const TASK_A = '01HR0000000000000000000001';
export const TASK_B = '01HR0000000000000000000002';

let counter = 0;
export const nextId = (prefix = 'evt') => `${prefix}-${++counter}`;

type PayloadInput<T extends FrontendEventPayload['type']> = Omit<
  Extract<FrontendEventPayload, { type: T }>,
  'id' | 'timestamp' | 'type'
> & {
  id?: string;
  timestamp?: number;
};

export function payload<T extends FrontendEventPayload['type']>(
  type: T,
  fields: PayloadInput<T>,
): Extract<FrontendEventPayload, { type: T }> {
  return { id: fields.id ?? nextId(), timestamp: fields.timestamp ?? 1_000, type, ...fields } as unknown as Extract<
    FrontendEventPayload,
    { type: T }
  >;
}

export function envelope(event: FrontendEventPayload, taskId?: string): FrontendEvent {
  return { type: 'event', id: nextId('env'), timestamp: event.timestamp, ...(taskId ? { taskId } : {}), event };
}

export const delta = (
  targetEventId: string,
  content: string,
  finished = false,
  extra: { id?: string; timestamp?: number } = {},
) => payload('chatDelta', { sender: 'assistant', targetEventId, finished, delta: { content }, ...extra });

export function snapshotState(
  tabs: { tabId: number; title?: string; url?: string; active?: boolean; groupId?: number }[],
  lastUpdated = 1_000,
): SnapshotState {
  return {
    windows: [{ windowId: 1, focused: true }],
    tabs: tabs.map((t, index) => ({ windowId: 1, active: false, pinned: false, hidden: false, index, ...t })),
    tabGroups: [],
    activeWindowId: 1,
    activeTabId: tabs.find((t) => t.active)?.tabId ?? null,
    lastUpdated,
  };
}

export function snapshotResponse(state: SnapshotState, extra: Partial<SnapshotResponse> = {}): SnapshotResponse {
  return { ...state, connected: true, ageMs: 0, stale: false, ...extra };
}

export function summary(taskId: string, fields: Partial<TaskSummary> = {}): TaskSummary {
  return { taskId, title: 'A task', status: 'ongoing', createdAt: 1_000, updatedAt: 1_000, ...fields };
}

export function extension(clientId: string, fields: Partial<ExtensionListItem> = {}): ExtensionListItem {
  return { clientId, socketConnected: true, lastSeenAt: 1_000, health: 'healthy', ...fields };
}

/** A fake API whose answers the test sets, recording the calls. */
export class FakeApi implements ApiClient {
  calls: string[] = [];
  tasks: ApiResult<TaskSummary[]> = { ok: true, data: [] };
  details = new Map<string, ApiResult<TaskDetail>>();
  snapshot: ApiResult<SnapshotResponse> = { ok: true, data: snapshotResponse(snapshotState([])) };
  extensions: ApiResult<ExtensionListItem[]> = { ok: true, data: [] };
  nextTaskIds: string[] = [];
  /** When set, getSnapshot waits for this promise before answering. */
  snapshotGate: Promise<void> | null = null;

  async newTaskId() {
    this.calls.push('newTaskId');
    const taskId = this.nextTaskIds.shift();
    return taskId
      ? { ok: true as const, data: { taskId } }
      : { ok: false as const, error: { code: 'UNAVAILABLE', message: 'no id' } };
  }
  async listTasks() {
    this.calls.push('listTasks');
    return this.tasks;
  }
  /** Pages `tasks` in the given order; the cursor is the index of the next task, as text. */
  async listTaskPage(limit: number, cursor?: string | null) {
    this.calls.push(cursor ? `listTaskPage ${limit} ${cursor}` : `listTaskPage ${limit}`);
    if (!this.tasks.ok) return this.tasks;
    const from = cursor ? Number(cursor) : 0;
    const tasks = this.tasks.data.slice(from, from + limit);
    const nextCursor = from + limit < this.tasks.data.length ? String(from + limit) : null;
    return { ok: true as const, data: { tasks, nextCursor } };
  }
  async getTask(taskId: string) {
    this.calls.push(`getTask ${taskId}`);
    return this.details.get(taskId) ?? { ok: false as const, error: { code: 'NOT_FOUND', message: 'no such task' } };
  }
  async getSnapshot() {
    this.calls.push('getSnapshot');
    const answer = this.snapshot;
    if (this.snapshotGate) await this.snapshotGate;
    return answer;
  }
  async listExtensions() {
    this.calls.push('listExtensions');
    return this.extensions;
  }
}

/** A fake socket link: records sent messages, answers with `ack`, lets the test push events. */
export class FakeLink implements SocketLink {
  sent: FrontendMessage[] = [];
  connected = false;
  ack: (message: FrontendMessage) => AckResult | Promise<AckResult> = () => ({ ok: true });
  private events = new Set<(e: FrontendEvent) => void>();
  private statuses = new Set<(s: LinkStatus) => void>();
  private frames = new Set<(frame: LiveFrame, done: () => void) => void>();
  onLiveFrame(listener: (frame: LiveFrame, done: () => void) => void) {
    this.frames.add(listener);
    return () => this.frames.delete(listener);
  }
  /** Delivers a live frame as the server would; resolves... returns how many times it was acked. */
  pushFrame(frame: LiveFrame): { acks: number } {
    const acks = { acks: 0 };
    this.frames.forEach((l) => l(frame, () => (acks.acks += 1)));
    return acks;
  }

  async send(message: FrontendMessage): Promise<AckResult> {
    if (!this.connected) return { ok: false, error: { code: 'UNAVAILABLE', message: 'not connected to the server' } };
    this.sent.push(message);
    return this.ack(message);
  }
  onEvent(listener: (e: FrontendEvent) => void) {
    this.events.add(listener);
    return () => this.events.delete(listener);
  }
  onStatus(listener: (s: LinkStatus) => void) {
    this.statuses.add(listener);
    return () => this.statuses.delete(listener);
  }
  connect() {}
  close() {}
  emit(event: FrontendEvent) {
    this.events.forEach((l) => l(event));
  }
  setStatus(status: LinkStatus) {
    this.connected = status.type === 'connected';
    this.statuses.forEach((l) => l(status));
  }
  types() {
    return this.sent.map((m) => m.type);
  }
}

/** Lets queued promise callbacks run. */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
