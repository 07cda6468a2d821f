// Steps in plain words and errors with their actions: pure functions, no DOM.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ToolItem } from '../src/models/chat-items.ts';
import { errorWords } from '../src/text/error-words.ts';
import { groupSteps, parseParams } from '../src/text/step-words.ts';

let n = 0;
function action(actionName: string, paramsSummary: string, fields: Partial<ToolItem> = {}): ToolItem {
  n += 1;
  return {
    kind: 'tool',
    key: `t:${n}`,
    toolCallId: 'call-1',
    actionId: `act-${n}`,
    actionName,
    paramsSummary,
    phase: 'success',
    timestamp: n,
    artifacts: [],
    warnings: [],
    ...fields,
  };
}

const words = suite('steps in plain words');

words('an open with its page preparation is one step named by the page title', () => {
  const open = [
    action('task_start', 'url="https://sqlite.org/lang_select.html" groupTitle="Mimo x"'),
    action('browser_debugger_attach', 'tabId=7'),
    action('browser_wait_for_loaded', 'tabId=7', { target: 'SQLite docs' }),
    action('browser_screenshot', 'tabId=7'),
    action('browser_readability_extract', 'tabId=7'),
    action('browser_dom_index', 'tabId=7 scope="document"'),
  ];
  const rows = groupSteps(open);
  assert.is(rows.length, 1);
  const group = rows[0]!;
  assert.ok(group.kind === 'step');
  if (group.kind !== 'step') return;
  assert.is(group.title, 'Opened SQLite docs');
  assert.is(group.prep.length, 5);
  assert.is(group.phase, 'success');
});

words('click and type read with the element label; running steps read in the present', () => {
  const click = groupSteps([
    { ...action('browser_click', 'tabId=7 clickId=4', { target: 'Submit' }), toolCallId: 'c2' },
  ])[0]!;
  assert.is(click.kind === 'step' && click.title, "Clicked 'Submit'");
  const typing = groupSteps([
    {
      ...action('browser_type', 'tabId=7 clickId=2 text="Ada"', { target: 'Your name', phase: 'start' }),
      toolCallId: 'c3',
    },
  ])[0]!;
  assert.is(typing.kind === 'step' && typing.title, "Typing 'Ada' into 'Your name'");
  const unnamed = groupSteps([{ ...action('browser_click', 'tabId=7 clickId=9'), toolCallId: 'c4' }])[0]!;
  assert.is(unnamed.kind === 'step' && unnamed.title, 'Clicked element #9');
});

words(
  'a failed prep step makes the step partial; a canceled one shows canceled; a chrome error page is unreachable',
  () => {
    const partial = groupSteps([
      action('browser_click', 'clickId=1', { target: 'Go' }),
      action('browser_screenshot', 'tabId=1', {
        phase: 'error',
        error: { code: 'ARTIFACT_UPLOAD_FAILED', message: 'x' },
      }),
    ])[0]!;
    assert.is(partial.kind === 'step' && partial.phase, 'partial');
    const canceled = groupSteps([action('browser_click', 'clickId=1', { phase: 'start', canceled: true })])[0]!;
    assert.is(canceled.kind === 'step' && canceled.phase, 'canceled');
    const refused = groupSteps([
      action('task_start', 'url="http://127.0.0.1:9/"'),
      action('browser_wait_for_loaded', 'tabId=1', { result: { url: 'chrome-error://chromewebdata/' } }),
    ])[0]!;
    assert.ok(refused.kind === 'step' && refused.unreachable && refused.phase === 'error');
    assert.is(refused.kind === 'step' && refused.title, 'Could not reach 127.0.0.1');
  },
);

words('other items split groups; params parse back from the summary', () => {
  const rows = groupSteps<{ kind: 'notice'; key: string }>([
    action('browser_click', 'clickId=1'),
    { kind: 'notice', key: 'n1' },
    action('browser_click', 'clickId=2'),
  ]);
  assert.equal(
    rows.map((r) => r.kind),
    ['step', 'notice', 'step'],
  );
  assert.equal(parseParams('tabId=12 text="a \\"b\\" c" submit=true'), { tabId: 12, text: 'a "b" c', submit: true });
});

words.run();

const errors = suite('errors with actions');

errors('retryable codes offer Retry; plugin errors offer the options and another browser', () => {
  assert.equal(
    errorWords({ code: 'NAVIGATION_TIMEOUT', message: 'tab 817640615 timed out', retryable: true }).actions,
    ['retry'],
  );
  assert.equal(errorWords({ code: 'PLUGIN_ERROR', message: 'boom', retryable: false }).actions, [
    'extension-options',
    'select-browser',
  ]);
  assert.ok(errorWords({ code: 'PLUGIN_TIMEOUT_EXEC', message: 'x', retryable: true }).actions.includes('retry'));
});

errors('PLUGIN_OFFLINE is worded for the situation', () => {
  const none = errorWords({ code: 'PLUGIN_OFFLINE', message: 'Install', retryable: true }, 'none-ever');
  const elsewhere = errorWords({ code: 'PLUGIN_OFFLINE', message: 'Install', retryable: true }, 'disconnected');
  assert.match(none.title, /No browser extension is connected/);
  assert.ok(none.actions.includes('connect-extension'));
  assert.match(elsewhere.title, /installed but not connected to this server/);
  assert.ok(elsewhere.actions.includes('extension-options'));
  assert.not.match(elsewhere.title + (elsewhere.hint ?? ''), /Install/);
});

errors('URL_BLOCKED carries the policy hint; a refused connection reads unreachable', () => {
  const blocked = errorWords({
    code: 'URL_BLOCKED',
    message: 'x',
    retryable: false,
    details: { reason: 'blocked_address' },
  });
  assert.match(blocked.hint ?? '', /private or loopback/);
  assert.equal(blocked.actions, []);
  const refused = errorWords({
    code: 'PLUGIN_ERROR',
    message: 'net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/',
    retryable: false,
  });
  assert.match(refused.title, /unreachable/);
});

errors.run();
