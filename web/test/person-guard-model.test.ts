// The web's side of the person guard (issue 23): waiting steps, scope, answers, Show the tab.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPersonGuardModel, stepWords } from '../src/models/person-guard-model.ts';
import type { AckResult } from '../src/io/ack.ts';

const step = {
  kind: 'consequential_button' as const,
  toolName: 'browser_click',
  site: 'myshop.com',
  element: 'Buy now',
  reason: '"Buy now" reads as "buy now"',
};
const ev = (type: string, extra: object) => ({ id: 'e', timestamp: 1, type, ...extra }) as never;

function model(reply: AckResult = { ok: true }) {
  const sent: unknown[] = [];
  const m = createPersonGuardModel({
    answer: async (requestId, decision) => (sent.push(['answer', requestId, decision]), reply),
    setScope: async (sites) => (sent.push(['scope', sites]), reply),
    showTab: async () => (sent.push(['show']), reply),
    setSecret: async (name, value) => (sent.push(['secret', name, value.length]), reply),
  });
  return { m, sent };
}

const test = suite('person guard model');

test('a requested step shows until its resolution arrives; duplicates are ignored', () => {
  const { m } = model();
  m.applyRequested(ev('confirmationRequested', { requestId: 'cfm-1', toolCallId: 'c', step }));
  m.applyRequested(ev('confirmationRequested', { requestId: 'cfm-1', toolCallId: 'c', step }));
  m.applyRequested(
    ev('confirmationRequested', { requestId: 'cfm-2', toolCallId: 'd', step: { ...step, element: 'Delete all' } }),
  );
  assert.is(m.waiting.value.length, 2);
  assert.is(m.current.value?.requestId, 'cfm-1');
  m.applyResolved(ev('confirmationResolved', { requestId: 'cfm-1', decision: 'deny', by: 'overlay' }));
  assert.is(m.current.value?.requestId, 'cfm-2');
  m.reset();
  assert.is(m.current.value, null);
});

test('answers, scope edits and Show the tab send their messages; a refusal shows its error', async () => {
  const { m, sent } = model();
  await m.answer('cfm-1', 'allow_site');
  await m.setScope('example.com,\n localhost:4100 ');
  await m.showTab();
  assert.equal(sent, [['answer', 'cfm-1', 'allow_site'], ['scope', ['example.com', 'localhost:4100']], ['show']]);
  const refused = model({ ok: false, error: { code: 'TASK_TAB_CLOSED', message: 'the task has no tab yet' } });
  await refused.m.showTab();
  assert.is(refused.m.error.value?.code, 'TASK_TAB_CLOSED');
});

test('a secret is sent once; only its name is kept', async () => {
  const { m, sent } = model();
  await m.setSecret(' bank ', 'hunter22');
  assert.equal(sent, [['secret', 'bank', 8]]);
  assert.equal(m.secretNames.value, ['bank']);
  assert.not.ok(JSON.stringify(m.secretNames.value).includes('hunter22'));
});

test('the scope follows taskScope events; the step reads as the person would say it', () => {
  const { m } = model();
  m.applyScope(ev('taskScope', { sites: [{ site: 'example.com', from: 'request' }] }));
  assert.equal(
    m.scope.value.map((s) => s.site),
    ['example.com'],
  );
  assert.is(stepWords(step), 'Click "Buy now" on myshop.com');
  assert.is(
    stepWords({ ...step, toolName: 'browser_type', element: 'Password', value: '••••••' }),
    'Type into "Password" with the value "••••••" on myshop.com',
  );
  assert.is(
    stepWords({
      kind: 'off_scope_navigation',
      toolName: 'browser_open',
      site: 'evil.net',
      url: 'https://evil.net/x',
      reason: 'r',
    }),
    'Open https://evil.net/x on evil.net',
  );
});

test.run();
