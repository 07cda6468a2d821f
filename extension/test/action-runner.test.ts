import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BrowserActionResultMessageSchema, validate } from '../../transport/contracts/index.ts';
import type { BrowserActionAck, BrowserActionResultMessage } from '../../transport/contracts/index.ts';
import type { ActionHandlers } from '../background/action-context.ts';
import { fail } from '../background/action-failure.ts';
import { actionHandlers } from '../background/action-handlers.ts';
import { createActionRunner } from '../background/action-runner.ts';
import { browserAction, CLIENT_ID, TASK_ID, testServices, withTaskTab } from './fakes/fake-services.ts';

function setup(overrides: Partial<ActionHandlers> = {}) {
  const services = testServices();
  const sent: BrowserActionResultMessage[] = [];
  const log: string[] = [];
  const runner = createActionRunner({
    handlers: { ...actionHandlers, ...overrides } as ActionHandlers,
    services,
    clientId: () => CLIENT_ID,
    send: (message) => {
      log.push(`result ${message.actionId}`);
      sent.push(message);
      return true;
    },
  });
  const acks: BrowserActionAck[] = [];
  const ack = (response: BrowserActionAck) => {
    log.push('ack');
    acks.push(response);
  };
  return { services, runner, sent, acks, ack, log };
}

const s = suite('action runner');

s('acks at once (before the handler finishes), then sends a result that fits the contract', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const { runner, sent, acks, ack, log } = setup({
    task_stop: async () => {
      log.push('handler');
      await gate;
      return { stopped: true };
    },
  });
  const done = runner.receive(browserAction('task_stop', {}, 'act-1'), ack);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(acks, [{ ok: true }]);
  assert.is(sent.length, 0);
  release();
  await done;
  assert.equal(log, ['ack', 'handler', 'result act-1']);
  assert.ok(validate(BrowserActionResultMessageSchema, sent[0]).ok);
  assert.equal(
    { ...sent[0], timestamp: 0 },
    {
      v: 1,
      type: 'browser_action_result',
      actionId: 'act-1',
      taskId: TASK_ID,
      clientId: CLIENT_ID,
      timestamp: 0,
      status: 'success',
      result: { stopped: true },
    },
  );
});

s('bad params: acked, then an error result SCHEMA_VALIDATION_FAILED naming the field', async () => {
  const { runner, sent, acks, ack } = setup();
  await runner.receive(
    {
      ...browserAction('browser_click', { tabId: 1, xpath: '//a' }, 'act-2'),
      action: { browser_click: { tabId: -1 } },
    },
    ack,
  );
  assert.equal(acks, [{ ok: true }]);
  assert.is(sent[0]!.status, 'error');
  const error = (sent[0] as Extract<BrowserActionResultMessage, { status: 'error' }>).error;
  assert.is(error.code, 'SCHEMA_VALIDATION_FAILED');
  assert.is(error.retryable, false);
  assert.ok(
    (error.details!.fieldErrors as Array<{ field: string }>).some((f) => f.field === 'action.browser_click.tabId'),
  );
});

s('a message without an id or a valid taskId is refused in the ack, with no result', async () => {
  const { runner, sent, acks, ack } = setup();
  await runner.receive({ type: 'browser_action', id: 'act-3', taskId: 'not-a-ulid', action: {} }, ack);
  await runner.receive('garbage', ack);
  assert.is(acks.length, 2);
  assert.ok(acks.every((a) => !a.ok && a.error?.code === 'SCHEMA_VALIDATION_FAILED'));
  assert.is(sent.length, 0);
});

s('an action addressed to another client is refused', async () => {
  const { runner, sent, acks, ack } = setup();
  await runner.receive({ ...browserAction('task_stop', {}), clientId: 'plugin-other' }, ack);
  assert.is(acks[0]!.ok, false);
  assert.is(sent.length, 0);
});

s('a repeated actionId gets the first result again; the handler runs once', async () => {
  let runs = 0;
  const { runner, sent, ack } = setup({
    task_stop: async () => {
      runs += 1;
      return { stopped: true, warnings: [`run ${runs}`] };
    },
  });
  const first = runner.receive(browserAction('task_stop', {}, 'act-dup'), ack);
  const second = runner.receive(browserAction('task_stop', {}, 'act-dup'), ack);
  await Promise.all([first, second]);
  await runner.receive(browserAction('task_stop', {}, 'act-dup'), ack);
  assert.is(runs, 1);
  assert.is(sent.length, 3);
  assert.equal(sent[1], sent[0]);
  assert.equal(sent[2], sent[0]);
});

s('handler failures become error results: ActionFailure keeps its code, anything else is PLUGIN_ERROR', async () => {
  const { runner, sent, ack } = setup({
    browser_get_html: async () => fail('INVALID_TARGET', 'gone', { reason: 'stale' }),
    task_stop: async () => {
      throw new Error('boom');
    },
    browser_dom_index: async () => ({ elements: 'not an array' }) as never,
  });
  await runner.receive(browserAction('browser_get_html', { tabId: 1 }), ack);
  await runner.receive(browserAction('task_stop', {}), ack);
  await runner.receive(browserAction('browser_dom_index', { tabId: 1 }), ack);
  const codes = sent.map((m) =>
    m.status === 'error' ? [m.error.code, m.error.details?.reason ?? m.error.message] : m.status,
  );
  assert.equal(codes[0], ['INVALID_TARGET', 'stale']);
  assert.equal(codes[1], ['PLUGIN_ERROR', 'task_stop failed: boom']);
  assert.is(codes[2]![0], 'PLUGIN_ERROR');
  assert.match(String(codes[2]![1]), 'broke the contract');
});

s('a slow action on the task tab is announced to its content script and settled; other tabs hear nothing', async () => {
  let release!: () => void;
  const { runner, services, ack } = setup({
    browser_click: (params) =>
      params.tabId === 99
        ? Promise.resolve({ clicked: true, strategy: 'cdp_mouse' })
        : new Promise((resolve) => (release = () => resolve({ clicked: true, strategy: 'cdp_mouse' }))),
  });
  const tabId = await withTaskTab(services, 7);
  const done = runner.receive(browserAction('browser_click', { tabId, xpath: '//a' }, 'act-c'), ack);
  await new Promise((resolve) => setImmediate(resolve));
  services.timers.advance(1_000);
  release();
  await done;
  await runner.receive(browserAction('browser_click', { tabId: 99, xpath: '//a' }, 'act-other'), ack);
  services.timers.advance(1_000);
  assert.equal(
    services.browser.sentToTabs.map((m) => [m.tabId, (m.message as any).kind, (m.message as any).label]),
    [
      [7, 'action_started', 'Clicking'],
      [7, 'action_settled', undefined],
    ],
  );
});

s.run();
