// A table of invalid inputs: each is rejected, never throws, and names the offending field.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type * as v from 'valibot';
import * as c from '../index.ts';
import { browserAction, envelope, resultMessage, tab, TASK_ID, userMessage } from './util.ts';

type Case = { name: string; schema: v.GenericSchema; input: unknown; field: string; message?: RegExp };

const fullStateSync = (extra: Record<string, unknown>) => ({
  v: 1,
  type: 'full_state_sync',
  windows: [],
  tabs: [],
  tabGroups: [],
  activeWindowId: null,
  activeTabId: null,
  timestamp: 1,
  ...extra,
});

const { taskId: _omitTaskId, ...userMessageWithoutTaskId } = userMessage();

const cases: Case[] = [
  {
    name: 'user_message without taskId',
    schema: c.FrontendMessageSchema,
    input: userMessageWithoutTaskId,
    field: 'taskId',
    message: /required/,
  },
  {
    name: 'user_message with v: 2',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), v: 2 },
    field: 'v',
    message: /^unsupported protocol version 2; this server speaks v1$/,
  },
  {
    name: 'user_message without v',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), v: undefined },
    field: 'v',
    message: /missing protocol version/,
  },
  {
    name: 'user_message with v as the string "1"',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), v: '1' },
    field: 'v',
    message: /unsupported protocol version "1"/,
  },
  {
    name: 'user_message with a placeholder taskId',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), taskId: '01HR...' },
    field: 'taskId',
    message: /ULID .* or a UUID/,
  },
  {
    name: 'user_message with a 27-char ULID',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), taskId: `${TASK_ID}0` },
    field: 'taskId',
  },
  {
    name: 'user_message with a ULID containing U',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), taskId: '01HRZ8Q3K9V2M4N6P8R0S2T4VU' },
    field: 'taskId',
  },
  {
    name: 'user_message with a UUID without dashes',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), taskId: 'c9a646d39c614cb7bfcdee2522c8f633' },
    field: 'taskId',
  },
  {
    name: 'user_message with empty content',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), content: '' },
    field: 'content',
  },
  {
    name: 'user_message with timestamp as an ISO string',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), timestamp: '2024-10-27T00:00:00Z' },
    field: 'timestamp',
  },
  {
    name: 'frontend_message of unknown type',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), type: 'delete_everything' },
    field: 'type',
    message: /unknown type "delete_everything"/,
  },
  { name: 'frontend_message that is not an object', schema: c.FrontendMessageSchema, input: 'hello', field: '' },
  {
    name: 'select_extension without clientId',
    schema: c.FrontendMessageSchema,
    input: { ...userMessage(), type: 'select_extension', content: undefined },
    field: 'clientId',
  },
  {
    name: 'browser_click with tabId as a string',
    schema: c.BrowserActionSchema,
    input: browserAction({ browser_click: { tabId: '123', clickId: 4 } }),
    field: 'action.browser_click.tabId',
  },
  {
    name: 'browser_click without a target',
    schema: c.BrowserActionSchema,
    input: browserAction({ browser_click: { tabId: 123 } }),
    field: 'action.browser_click',
    message: /clickId or xpath/,
  },
  {
    name: 'browser_click with an unknown strategy',
    schema: c.BrowserActionSchema,
    input: browserAction({ browser_click: { tabId: 1, clickId: 1, strategy: 'teleport' } }),
    field: 'action.browser_click.strategy',
  },
  {
    name: 'unknown action name',
    schema: c.BrowserActionSchema,
    input: browserAction({ browser_fly: { tabId: 1 } }),
    field: 'action.browser_fly',
    message: /unknown action "browser_fly"/,
  },
  {
    name: 'action naming two actions',
    schema: c.BrowserActionSchema,
    input: browserAction({ browser_screenshot: { tabId: 1 }, browser_get_html: { tabId: 1 } }),
    field: 'action',
    message: /exactly one action/,
  },
  { name: 'action as an empty object', schema: c.BrowserActionSchema, input: browserAction({}), field: 'action' },
  {
    name: 'action as an array',
    schema: c.BrowserActionSchema,
    input: browserAction([{ browser_screenshot: { tabId: 1 } }]),
    field: 'action',
  },
  {
    name: 'browser_type without text',
    schema: c.BrowserActionSchema,
    input: browserAction({ browser_type: { tabId: 1, clickId: 2 } }),
    field: 'action.browser_type.text',
  },
  {
    name: 'browser_dom_index with a non-data assignAttr',
    schema: c.BrowserActionSchema,
    input: browserAction({ browser_dom_index: { tabId: 1, assignAttr: 'onclick' } }),
    field: 'action.browser_dom_index.assignAttr',
  },
  {
    name: 'task_start with a relative url',
    schema: c.BrowserActionSchema,
    input: browserAction({ task_start: { url: '/relative' } }),
    field: 'action.task_start.url',
  },
  {
    name: 'browser_switch_tab with a negative tabId',
    schema: c.BrowserActionSchema,
    input: browserAction({ browser_switch_tab: { tabId: -1 } }),
    field: 'action.browser_switch_tab.tabId',
  },
  {
    name: 'browser_action with a zero timeoutMs override',
    schema: c.BrowserActionSchema,
    input: { ...browserAction(), timeoutMs: 0 },
    field: 'timeoutMs',
  },
  {
    name: 'browser_action without clientId',
    schema: c.ServerToPluginMessageSchema,
    input: { ...browserAction(), clientId: undefined },
    field: 'clientId',
  },
  {
    name: 'v1 error result without error',
    schema: c.IncomingPluginMessageSchema,
    input: { ...resultMessage(), status: 'error', result: undefined },
    field: 'error',
    message: /required/,
  },
  {
    name: 'partial result without warnings',
    schema: c.IncomingPluginMessageSchema,
    input: { ...resultMessage(), status: 'partial' },
    field: 'result.warnings',
  },
  {
    name: 'result with an unknown status',
    schema: c.IncomingPluginMessageSchema,
    input: { ...resultMessage(), status: 'maybe' },
    field: 'status',
  },
  {
    name: 'legacy result with a numeric error',
    schema: c.IncomingPluginMessageSchema,
    input: { actionId: 'a1', status: 'error', error: 5 },
    field: 'error',
  },
  {
    name: 'legacy result without status',
    schema: c.IncomingPluginMessageSchema,
    input: { actionId: 'a1' },
    field: 'status',
  },
  {
    name: 'tab_event of unknown eventType',
    schema: c.IncomingPluginMessageSchema,
    input: { v: 1, type: 'tab_event', eventType: 'tab_exploded', timestamp: 1 },
    field: 'eventType',
    message: /tab_exploded/,
  },
  {
    name: 'tab_removed without tabId',
    schema: c.IncomingPluginMessageSchema,
    input: { v: 1, type: 'tab_event', eventType: 'tab_removed', timestamp: 1 },
    field: 'tabId',
  },
  {
    name: 'tab_updated with a tab missing pinned',
    schema: c.IncomingPluginMessageSchema,
    input: { v: 1, type: 'tab_event', eventType: 'tab_updated', timestamp: 1, tab: { ...tab(), pinned: undefined } },
    field: 'tab.pinned',
  },
  {
    name: 'full_state_sync with a bad second tab',
    schema: c.IncomingPluginMessageSchema,
    input: fullStateSync({ tabs: [tab(), { ...tab(), index: -1 }] }),
    field: 'tabs.1.index',
  },
  {
    name: 'full_state_sync with activeTabId undefined instead of null',
    schema: c.IncomingPluginMessageSchema,
    input: fullStateSync({ activeTabId: undefined }),
    field: 'activeTabId',
  },
  {
    name: 'takeover_report without reason',
    schema: c.IncomingPluginMessageSchema,
    input: { v: 1, type: 'takeover_report', taskId: TASK_ID, clientId: 'p', timestamp: 1 },
    field: 'reason',
  },
  {
    name: 'overlay_command with an unknown command',
    schema: c.IncomingPluginMessageSchema,
    input: { v: 1, type: 'overlay_command', taskId: TASK_ID, clientId: 'p', timestamp: 1, command: 'pause' },
    field: 'command',
  },
  {
    name: 'plugin_ui_state with an unknown state',
    schema: c.ServerToPluginMessageSchema,
    input: { v: 1, type: 'plugin_ui_state', taskId: TASK_ID, clientId: 'p', timestamp: 1, state: 'dancing' },
    field: 'state',
  },
  {
    name: 'chatDelta from the user',
    schema: c.FrontendEventSchema,
    input: envelope({
      type: 'chatDelta',
      sender: 'user',
      targetEventId: 'e',
      finished: false,
      delta: { content: 'x' },
    }),
    field: 'event.sender',
  },
  {
    name: 'structuredOutput error without error',
    schema: c.FrontendEventSchema,
    input: envelope({ type: 'structuredOutput', status: 'error' }),
    field: 'event.error',
  },
  {
    name: 'snapshotSync in mode diff',
    schema: c.FrontendEventSchema,
    input: envelope({ type: 'snapshotSync', mode: 'diff', seq: 1, state: {} }),
    field: 'event.mode',
  },
  {
    name: 'toolUsed with an unknown phase',
    schema: c.FrontendEventSchema,
    input: envelope({
      type: 'toolUsed',
      toolCallId: 'c',
      actionName: 'browser_click',
      phase: 'halfway',
      paramsSummary: '',
    }),
    field: 'event.phase',
  },
  {
    name: 'inspection record of an unknown type',
    schema: c.FrontendEventSchema,
    input: envelope({ type: 'inspection', record: { type: '@xstate.other', actorId: 'x' } }),
    field: 'event.record.type',
  },
  {
    name: 'usage with fractional tokens',
    schema: c.FrontendEventSchema,
    input: envelope({ type: 'usage', promptTokens: 1.5, completionTokens: 1, totalTokens: 2 }),
    field: 'event.promptTokens',
  },
  {
    name: 'frontend_event of unknown event type',
    schema: c.FrontendEventSchema,
    input: envelope({ type: 'telepathy' }),
    field: 'event.type',
  },
  {
    name: 'error envelope with a non-HTTP code',
    schema: c.ErrorEnvelopeSchema,
    input: { ok: false, error: { code: 'PLUGIN_OFFLINE', message: 'x' } },
    field: 'error.code',
  },
  {
    name: 'presign request with a bad kind',
    schema: c.ArtifactPresignRequestSchema,
    input: { taskId: TASK_ID, kind: 'video', contentType: 'video/mp4' },
    field: 'kind',
  },
  {
    name: 'presign request with a bad contentType',
    schema: c.ArtifactPresignRequestSchema,
    input: { taskId: TASK_ID, kind: 'screenshot', contentType: 'png' },
    field: 'contentType',
  },
  {
    name: 'extension registration without clientId',
    schema: c.ExtensionRegistrationSchema,
    input: { extensionId: 'abc', version: '0.1.0' },
    field: 'clientId',
  },
  {
    name: 'plugin socket auth without clientId',
    schema: c.SocketAuthSchema,
    input: { clientType: 'plugin' },
    field: 'clientId',
  },
  {
    name: 'tool result ok: false without error',
    schema: c.ToolResultSchema,
    input: { toolCallId: 'c', name: 'browser_action', ok: false },
    field: 'error',
  },
  {
    name: 'browser_screenshot result without width',
    schema: c.actionResultSchemas.browser_screenshot,
    input: { artifactId: 'a', url: 'http://x/a', height: 1 },
    field: 'width',
  },
];

const table = suite('invalid messages');

table('the table is large enough', () => {
  assert.ok(cases.length >= 25, `only ${cases.length} cases`);
});

for (const testCase of cases) {
  table(testCase.name, () => {
    const result = c.validate(testCase.schema, testCase.input);
    if (result.ok) return assert.unreachable(`accepted: ${JSON.stringify(testCase.input)}`);
    assert.is(result.error.code, 'BAD_REQUEST');
    const fields = result.error.fieldErrors.map((e) => e.field);
    assert.ok(
      fields.includes(testCase.field),
      `expected field "${testCase.field}", got ${JSON.stringify(result.error.fieldErrors)}`,
    );
    if (testCase.message) {
      const hit = result.error.fieldErrors.find((e) => e.field === testCase.field);
      assert.match(hit?.message ?? '', testCase.message);
    }
  });
}

table.run();
