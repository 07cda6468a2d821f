// The scripted agent turn: what a real orchestrator would emit for "open a page and look at it",
// as frontend_events with realistic shapes and pacing (streamed text, tool steps with a
// screenshot artifact, a snapshot change, inspection records of the four machines, usage).
import type { FrontendEventPayload, InspectionRecord } from '../../../../transport/contracts/frontend-event.ts';
import type { TaskStatus } from '../../../../transport/contracts/task-status.ts';
import { pageScreenshot } from './png.ts';
import type { HarnessWorld } from './world.ts';

export type PayloadInput = {
  [T in FrontendEventPayload['type']]: Omit<Extract<FrontendEventPayload, { type: T }>, 'id' | 'timestamp'>;
}[FrontendEventPayload['type']];

export interface TurnIo {
  world: HarnessWorld;
  baseUrl: string;
  stepMs: number;
  toTask(taskId: string, event: PayloadInput): void;
  inspect(taskId: string, record: InspectionRecord): void;
  snapshotChanged(): void;
  setStatus(taskId: string, status: TaskStatus, reason?: string): void;
  now(): number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const FIRST_TEXT = ["I'll open ", '**example.com** ', 'and take a ', 'screenshot.'];
export const SECOND_TEXT = [
  'The page shows **Example Domain**.',
  '\n\n| Field | Value |\n|---|---|\n',
  '| Title | Example Domain |\n| Tabs open | 3 |',
  '\n\nAnything else?',
];

export async function runScriptedTurn(io: TurnIo, taskId: string, userMessageId: string, turn: number): Promise<void> {
  const { world } = io;
  const task = world.tasks.get(taskId)!;
  const delta = (content: string, finished = false) =>
    io.toTask(taskId, {
      type: 'chatDelta',
      sender: 'assistant',
      targetEventId: userMessageId,
      finished,
      delta: { content },
    });
  const taskActor = `task:${taskId}`;
  const snap = (actorId: string, machineId: string, value: unknown, event?: string, context?: unknown) =>
    io.inspect(taskId, {
      type: '@xstate.snapshot',
      actorId,
      machineId,
      snapshot: { value, status: 'active', ...(context !== undefined ? { context } : {}) },
      ...(event ? { event: { type: event } } : {}),
    });
  // The task machine is parallel: its status, its action slot and the plugin-UI mirror.
  const running = (action: string, pluginUi: string) => ({ status: { running: 'active' }, action, pluginUi });

  io.setStatus(taskId, 'running');
  io.inspect(taskId, { type: '@xstate.event', actorId: taskActor, machineId: 'task', event: { type: 'USER_MESSAGE' } });
  snap(taskActor, 'task', running('idle', 'hidden'), 'USER_MESSAGE');
  for (const part of FIRST_TEXT) {
    await sleep(io.stepMs);
    delta(part);
  }

  // Tool 1: open the page in a new background tab of the task's group.
  await sleep(io.stepMs);
  const start = io.now();
  io.toTask(taskId, {
    type: 'toolUsed',
    toolCallId: `call-${turn}-1`,
    actionId: `act-${turn}-1`,
    actionName: 'task_start',
    phase: 'start',
    paramsSummary: 'url=https://example.com/',
  });
  // The record's context summary: the slot's action flattened (runtime/agent/inspection-hub.ts).
  const inFlight = { actionId: `act-${turn}-1`, actionName: 'task_start', settled: 0 };
  io.inspect(taskId, {
    type: '@xstate.event',
    actorId: taskActor,
    machineId: 'task',
    event: { type: 'ACTION_REQUESTED' },
  });
  snap(taskActor, 'task', running('awaitingAck', 'ongoing'), 'ACTION_REQUESTED', inFlight);
  await sleep(io.stepMs);
  snap(taskActor, 'task', running('executing', 'ongoing'), 'ACK', inFlight);
  await sleep(io.stepMs);
  const tabId = 100 + turn;
  world.snapshot = {
    ...world.snapshot,
    tabs: [
      ...world.snapshot.tabs.filter((t) => t.tabId !== tabId),
      {
        tabId,
        windowId: 1,
        index: world.snapshot.tabs.length,
        active: false,
        pinned: false,
        hidden: false,
        groupId: 5,
        title: 'Example Domain',
        url: 'https://example.com/',
        status: 'complete',
      },
    ],
    tabGroups: [{ groupId: 5, windowId: 1, title: 'Mimo', color: 'blue', collapsed: false }],
    lastUpdated: io.now(),
  };
  io.snapshotChanged();
  io.inspect(taskId, {
    type: '@xstate.event',
    actorId: taskActor,
    machineId: 'task',
    event: { type: 'RESULT' },
  });
  snap(taskActor, 'task', running('idle', 'hidden'), 'RESULT', { ...inFlight, status: 'succeeded', settled: 1 });
  io.toTask(taskId, {
    type: 'toolUsed',
    toolCallId: `call-${turn}-1`,
    actionId: `act-${turn}-1`,
    actionName: 'task_start',
    phase: 'success',
    paramsSummary: `url=https://example.com/ tabId=${tabId}`,
    durationMs: io.now() - start,
  });

  // Tool 2: page preparation takes a screenshot of the (background) task tab.
  await sleep(io.stepMs);
  const prep = `pagePrep:${taskId}:${turn}`;
  io.inspect(taskId, {
    type: '@xstate.actor',
    actorId: prep,
    machineId: 'pagePrep',
    parentId: taskActor,
    snapshot: { value: { preparing: { screenshot: 'capturing', readability: 'capturing' } }, status: 'active' },
  });
  io.toTask(taskId, {
    type: 'toolUsed',
    toolCallId: `call-${turn}-2`,
    actionId: `act-${turn}-2`,
    actionName: 'browser_screenshot',
    phase: 'start',
    paramsSummary: `tabId=${tabId}`,
  });
  await sleep(io.stepMs * 2);
  const artifactId = `art-e2e-${turn}-${world.counter}`;
  world.artifacts.set(artifactId, { contentType: 'image/png', bytes: pageScreenshot() });
  snap(prep, 'pagePrep', { preparing: { screenshot: 'captured', readability: 'captured' } }, 'SCREENSHOT_DONE');
  snap(prep, 'pagePrep', 'ok', 'READABILITY_DONE');
  io.toTask(taskId, {
    type: 'toolUsed',
    toolCallId: `call-${turn}-2`,
    actionId: `act-${turn}-2`,
    actionName: 'browser_screenshot',
    phase: 'success',
    paramsSummary: `tabId=${tabId}`,
    durationMs: 2 * io.stepMs + 37,
    artifacts: [{ artifactId, kind: 'screenshot', url: `${io.baseUrl}/api/artifacts/${artifactId}` }],
  });

  for (const [i, part] of SECOND_TEXT.entries()) {
    await sleep(io.stepMs);
    delta(part, i === SECOND_TEXT.length - 1);
  }
  io.toTask(taskId, { type: 'usage', promptTokens: 1200, completionTokens: 85, totalTokens: 1285 });

  // Persist the turn as the server's history would have it.
  const now = io.now();
  // Tool messages hold the ToolResult the model saw (transport/contracts/tool-result.ts).
  const toolMessage = (n: number, name: string, result: unknown, at: number) => ({
    id: `msg-${turn}-t${n}`,
    role: 'tool' as const,
    content: JSON.stringify({ toolCallId: `call-${turn}-${n}`, name, ok: true, result, warnings: [] }),
    timestamp: at,
    toolCallId: `call-${turn}-${n}`,
  });
  task.messages.push(
    { id: `msg-${turn}-a1`, role: 'assistant', content: FIRST_TEXT.join(''), timestamp: now - 4 },
    toolMessage(1, 'task_start', { tabId, windowId: 1, url: 'https://example.com/', title: 'Example Domain' }, now - 3),
    toolMessage(2, 'browser_screenshot', { screenshotUploaded: true, artifactId }, now - 2),
    { id: `msg-${turn}-a2`, role: 'assistant', content: SECOND_TEXT.join(''), timestamp: now - 1 },
  );
  snap(
    taskActor,
    'task',
    { status: { ongoing: 'idle' }, action: 'idle', pluginUi: 'hidden' },
    'xstate.done.actor.turn',
  );
  io.setStatus(taskId, 'ongoing');
}
