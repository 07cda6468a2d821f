// Every message type of each direction parses, and the type guards route it correctly.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as c from '../index.ts';
import { envelope, tab, TASK_ID, UUID_TASK_ID, userMessage } from './util.ts';

const frontend = suite('frontend_message: every type');

const controlTypes = [
  'resume_task',
  'stop_task',
  'takeover_task',
  'subscribe_task',
  'unsubscribe_task',
  'subscribe_inspection',
  'unsubscribe_inspection',
] as const;

frontend('user_message and each control message parse with a ULID or UUID taskId', () => {
  const { content: _content, ...base } = userMessage();
  for (const taskId of [TASK_ID, UUID_TASK_ID]) {
    assert.ok(c.validate(c.FrontendMessageSchema, { ...userMessage(), taskId }).ok);
    for (const type of controlTypes) {
      const result = c.validate(c.FrontendMessageSchema, { ...base, taskId, type });
      assert.ok(result.ok, type);
      assert.is(result.ok && result.value.type, type);
    }
    const select = c.validate(c.FrontendMessageSchema, {
      ...base,
      taskId,
      type: 'select_extension',
      clientId: 'plugin-abc',
    });
    assert.ok(select.ok && select.value.type === 'select_extension' && select.value.clientId === 'plugin-abc');
  }
});

frontend.run();

const events = suite('frontend_event: every event type');

const eventExamples: Record<c.FrontendEventType, Record<string, unknown>> = {
  chatDelta: {
    type: 'chatDelta',
    sender: 'assistant',
    targetEventId: 'evt-user-1',
    finished: true,
    delta: { content: '' },
  },
  structuredOutput: {
    type: 'structuredOutput',
    status: 'error',
    error: { code: 'PLUGIN_OFFLINE', message: 'connect the extension', retryable: true },
  },
  snapshotSync: {
    type: 'snapshotSync',
    mode: 'full',
    seq: 1,
    state: { windows: [], tabs: [tab()], tabGroups: [], activeWindowId: 1, activeTabId: 1, lastUpdated: 5 },
  },
  toolUsed: {
    type: 'toolUsed',
    toolCallId: 'call-1',
    actionName: 'browser_screenshot',
    phase: 'partial',
    paramsSummary: 'tabId=1',
    artifacts: [{ artifactId: 'art-1', kind: 'screenshot', url: 'http://x/art-1' }],
  },
  taskStatus: { type: 'taskStatus', status: 'completed', previous: 'ongoing' },
  inspection: {
    type: 'inspection',
    record: { type: '@xstate.snapshot', actorId: 'x:0', machineId: 'task', snapshot: { value: 'running' } },
  },
  usage: { type: 'usage', promptTokens: 10, completionTokens: 5, totalTokens: 15 },
  taskListChanged: {
    type: 'taskListChanged',
    taskId: '01JTASK0000000000000000000',
    status: 'running',
    title: 'Open example.com',
    createdAt: 5,
  },
  userMessage: { type: 'userMessage', messageId: 'msg-1', content: 'Open example.com' },
  confirmationRequested: {
    type: 'confirmationRequested',
    requestId: 'cfm-1',
    toolCallId: 'call-1',
    step: {
      kind: 'consequential_button',
      toolName: 'browser_click',
      site: 'example.com',
      url: 'https://shop.example.com/cart',
      element: 'Pay now',
      reason: '"Pay now" reads as "pay now"',
    },
  },
  confirmationResolved: { type: 'confirmationResolved', requestId: 'cfm-1', decision: 'deny', by: 'web' },
  taskScope: { type: 'taskScope', sites: [{ site: 'example.com', from: 'request' }] },
};

for (const [type, event] of Object.entries(eventExamples)) {
  events(type, () => {
    const input = envelope(event);
    const result = c.validate(c.FrontendEventSchema, input);
    assert.ok(result.ok, !result.ok ? result.error.message : '');
    assert.equal(result.ok && result.value, input);
  });
}

events('structuredOutput success needs no error', () => {
  assert.ok(
    c.validate(c.FrontendEventSchema, envelope({ type: 'structuredOutput', status: 'success', data: { rows: 3 } })).ok,
  );
});

events('an envelope without taskId is allowed (broadcast snapshot)', () => {
  const { taskId: _taskId, ...input } = envelope(eventExamples.snapshotSync);
  assert.ok(c.validate(c.FrontendEventSchema, input).ok);
});

events('seq: optional (recordings made before it), a non-negative integer when present', () => {
  const input = envelope(eventExamples.toolUsed);
  assert.ok(c.validate(c.FrontendEventSchema, input).ok, 'without seq');
  const withSeq = c.validate(c.FrontendEventSchema, { ...input, seq: 7 });
  assert.ok(withSeq.ok && withSeq.value.seq === 7);
  assert.not.ok(c.validate(c.FrontendEventSchema, { ...input, seq: -1 }).ok);
  assert.not.ok(c.validate(c.FrontendEventSchema, { ...input, seq: 1.5 }).ok);
});

events.run();

const tabEvents = suite('tab_event: every eventType');

const payloads: Record<c.TabEventType, Record<string, unknown>> = {
  tab_created: { tab: tab() },
  tab_updated: { tab: { ...tab(), url: 'https://example.com/', status: 'loading', groupId: -1 } },
  tab_removed: { tabId: 1, windowId: 1, isWindowClosing: false },
  tab_activated: { tabId: 1, windowId: 1 },
  tab_moved: { tabId: 1, windowId: 1, fromIndex: 0, toIndex: 2 },
  tab_attached: { tab: tab() },
  tab_detached: { tabId: 1, windowId: 1 },
  window_created: { window: { windowId: 2, focused: false, type: 'popup', state: 'normal' } },
  window_removed: { windowId: 2 },
  window_focus_changed: { windowId: -1 },
  group_created: { group: { groupId: 7, windowId: 1, title: 'Mimo', color: 'blue', collapsed: false } },
  group_updated: { group: { groupId: 7, windowId: 1, collapsed: true } },
  group_removed: { groupId: 7 },
};

tabEvents('the table lists every eventType', () => {
  assert.equal(Object.keys(payloads).sort(), [...c.tabEventTypes].sort());
});

for (const [eventType, payload] of Object.entries(payloads)) {
  tabEvents(eventType, () => {
    const input = { v: 1, type: 'tab_event', eventType, timestamp: 1, ...payload };
    const result = c.validate(c.IncomingPluginMessageSchema, input);
    assert.ok(result.ok, !result.ok ? result.error.message : '');
    assert.equal(result.ok && result.value, input);
  });
}

tabEvents.run();

const routing = suite('plugin_message routing');

routing('a message with actionId and no type is a legacy result; without actionId it is judged canonical', () => {
  const legacy = c.validate(c.IncomingPluginMessageSchema, { actionId: 'a', status: 'success' });
  assert.ok(legacy.ok && c.isLegacyActionResult(legacy.value));
  const v1 = c.validate(c.IncomingPluginMessageSchema, {
    v: 1,
    type: 'takeover_report',
    taskId: TASK_ID,
    clientId: 'p',
    timestamp: 1,
    reason: 'user_input',
  });
  assert.ok(v1.ok && !c.isLegacyActionResult(v1.value));
  const untyped = c.validate(c.IncomingPluginMessageSchema, { clientId: 'plugin-abc' });
  assert.equal(!untyped.ok && untyped.error.fieldErrors.map((e) => e.field), ['type']);
});

routing('server-to-plugin messages are not accepted as plugin-to-server and vice versa', () => {
  const uiState = { v: 1, type: 'plugin_ui_state', taskId: TASK_ID, clientId: 'p', timestamp: 1, state: 'takeover' };
  assert.ok(c.validate(c.ServerToPluginMessageSchema, uiState).ok);
  assert.not.ok(c.validate(c.IncomingPluginMessageSchema, uiState).ok);
  const report = { v: 1, type: 'takeover_report', taskId: TASK_ID, clientId: 'p', timestamp: 1, reason: 'user_click' };
  assert.ok(c.validate(c.IncomingPluginMessageSchema, report).ok);
  assert.not.ok(c.validate(c.ServerToPluginMessageSchema, report).ok);
});

routing('socket auth: frontend needs no clientId, unknown clientType is rejected', () => {
  assert.ok(c.validate(c.SocketAuthSchema, { clientType: 'frontend', token: 't' }).ok);
  const bad = c.validate(c.SocketAuthSchema, { clientType: 'robot' });
  assert.equal(!bad.ok && bad.error.fieldErrors.map((e) => e.field), ['clientType']);
  assert.is(c.rooms.task(TASK_ID), `task:${TASK_ID}`);
  assert.is(c.rooms.client('plugin-abc'), 'client:plugin-abc');
});

routing.run();
