// The small pieces on their own: tab budget, run store, output truncation and redaction,
// option spelling, login field finding, version rule.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTabBudget } from '../browser/tab-budget.ts';
import { createMemoryRunStore, type RunRecord } from '../runs/run-store.ts';
import { optionNameOf } from '../shell/shell-input.ts';
import { redact, shellReply, truncateBytes } from '../shell/shell-output.ts';
import { buildSnapshot, lookupRef } from '../shell/snapshot-refs.ts';
import { findLoginFields } from '../templates/login-keep-session.ts';
import { versionSupported } from '../templates/template-catalog.ts';

const budget = suite('tab budget');

budget('20 per session and 50 in all; waiters are served in order when slots free', async () => {
  const b = createTabBudget();
  for (let i = 0; i < 20; i++) assert.ok(b.tryAcquire('a'));
  assert.not.ok(b.tryAcquire('a'), '21st tab of one session');
  assert.is(b.free('a'), 0);
  for (let i = 0; i < 20; i++) assert.ok(b.tryAcquire('b'));
  for (let i = 0; i < 10; i++) assert.ok(b.tryAcquire('c'));
  assert.is(b.inUse(), 50);
  assert.not.ok(b.tryAcquire('d'), '51st tab in all');
  const order: string[] = [];
  const first = b.acquire('d').then(() => order.push('d1'));
  const second = b.acquire('d').then(() => order.push('d2'));
  b.release('a');
  await first;
  assert.equal(order, ['d1']);
  b.release('b');
  await second;
  assert.equal(order, ['d1', 'd2']);
  assert.is(b.inUse('d'), 2);
  assert.is(b.inUse(), 50);
});

budget('an aborted wait leaves the queue; releasing unknown sessions changes nothing', async () => {
  const b = createTabBudget({ perSession: 1, total: 1 });
  assert.ok(b.tryAcquire('a'));
  const controller = new AbortController();
  const waiting = b.acquire('b', controller.signal);
  controller.abort(new Error('stop'));
  try {
    await waiting;
    assert.unreachable('should reject');
  } catch (error) {
    assert.is((error as Error).message, 'stop');
  }
  b.release('nobody');
  assert.is(b.inUse(), 1);
  b.release('a');
  assert.is(b.inUse(), 0);
  assert.ok(b.tryAcquire('b'));
});

const store = suite('run store');

const record = (over: Partial<RunRecord> = {}): RunRecord => ({
  runId: 'run_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  templateId: 'batch_extract_pages',
  templateVersion: '1.0.0',
  status: 'queued',
  sessionId: 's',
  sessionCreated: true,
  trustLevel: 'local',
  mode: 'sync',
  inputs: {},
  timeoutMs: 1000,
  concurrency: 1,
  createdAt: 1,
  updatedAt: 1,
  cancelRequested: false,
  progress: { totalSteps: 1, doneSteps: 0 },
  steps: [],
  ...over,
});

store('writes coalesce: the last version put is the one stored; bad ids are refused', async () => {
  const s = createMemoryRunStore();
  const writes = [
    s.put(record({ status: 'queued' })),
    s.put(record({ status: 'running' })),
    s.put(record({ status: 'succeeded' })),
  ];
  await Promise.all(writes);
  await s.flush();
  const { runs } = await s.init();
  assert.is(runs.length, 1);
  assert.is(runs[0]!.status, 'succeeded');
  try {
    await s.put(record({ runId: '../../etc/passwd' }));
    assert.unreachable('accepted a path as run id');
  } catch (error) {
    assert.instance(error, TypeError);
  }
});

const out = suite('browser-shell output');

out('truncation keeps whole UTF-8 characters and ends with a marker within the limit', () => {
  const text = '茶'.repeat(1000); // 3000 bytes
  const cut = truncateBytes(text, 500);
  assert.ok(Buffer.byteLength(cut) <= 500);
  assert.match(cut, /\.\.\.\[truncated: \d+ of 3000 bytes omitted\]\n$/);
  assert.not.ok(cut.includes('\uFFFD'));
  assert.is(truncateBytes('short', 500), 'short');
});

out('replies: stdout is data JSON + newline on success, empty on failure; secrets redacted', () => {
  assert.equal(shellReply('s', 0, { a: 1 }, ''), { session_id: 's', exit_code: 0, stdout: '{"a":1}\n', stderr: '' });
  assert.equal(shellReply('s', 0, undefined, ''), { session_id: 's', exit_code: 0, stdout: 'null\n', stderr: '' });
  assert.equal(shellReply('s', 1, undefined, 'boom'), { session_id: 's', exit_code: 1, stdout: '', stderr: 'boom' });
  assert.equal(redact({ token: 'x', nested: [{ apiKey: 'y', Authorization: 'z', ok: 'v' }] }), {
    token: '[redacted]',
    nested: [{ apiKey: '[redacted]', Authorization: '[redacted]', ok: 'v' }],
  });
});

out('option names in any spelling', () => {
  assert.is(optionNameOf('--cdp'), 'cdp');
  assert.is(optionNameOf('--CDP=9222'), 'cdp');
  assert.is(optionNameOf('—json'), 'json');
  assert.is(optionNameOf('－－session'), 'session');
  assert.is(optionNameOf('  -p  '), 'p');
  assert.is(optionNameOf('cdp'), null);
  assert.is(optionNameOf('hello --cdp'), null);
});

out('refs: e<clickId>, older generations recognised, 300 at most listed', () => {
  const elements = Array.from({ length: 310 }, (_, i) => ({ clickId: 100 + i, tag: 'button', text: `b${i}` }));
  const snap = buildSnapshot(elements);
  assert.is(Object.keys(snap.refs).length, 300);
  assert.is(snap.truncated, true);
  assert.ok(lookupRef(snap.table, 'e100').ok);
  assert.ok(lookupRef(snap.table, 'e409').ok, 'listed or not, every indexed element is clickable');
  const old = lookupRef(snap.table, 'e99');
  assert.ok(!old.ok && /older snapshot/.test(old.message));
  const none = lookupRef(undefined, 'e1');
  assert.ok(!none.ok && /no snapshot yet/.test(none.message));
});

const login = suite('login fields');

login('finds user name, password and submit by type, words and hints', () => {
  const elements = [
    { clickId: 1, tag: 'a', text: 'Forgot password?' },
    { clickId: 2, tag: 'input', type: 'text', name: 'q', placeholder: 'Search' },
    { clickId: 3, tag: 'input', type: 'email', name: 'login_email' },
    { clickId: 4, tag: 'input', type: 'password', name: 'pw' },
    { clickId: 5, tag: 'button', text: 'Sign in' },
  ];
  const found = findLoginFields(elements, {});
  assert.equal([found.username?.clickId, found.password?.clickId, found.submit?.clickId], [3, 4, 5]);
  const hinted = findLoginFields(elements, { username: 'search' });
  assert.is(hinted.username?.clickId, 2);
  // The real extension's index has no `type`: ids in the xpath still give the fields away.
  const bare = findLoginFields(
    [
      { clickId: 7, tag: 'input', xpath: '//*[@id="username"]' },
      { clickId: 8, tag: 'input', xpath: '//*[@id="password"]' },
      { clickId: 9, tag: 'button', text: 'Continue' },
    ],
    {},
  );
  assert.equal([bare.username?.clickId, bare.password?.clickId, bare.submit?.clickId], [7, 8, 9]);
  assert.is(findLoginFields([{ clickId: 1, tag: 'a', text: 'Home' }], {}).password, undefined);
});

login('template versions: same major, not newer than ours', () => {
  assert.ok(versionSupported('1.0.0', '1.0.0'));
  assert.ok(versionSupported('1', '1.2.0'));
  assert.ok(versionSupported('1.1.9', '1.2.0'));
  assert.not.ok(versionSupported('1.3', '1.2.0'));
  assert.not.ok(versionSupported('2.0.0', '1.2.0'));
  assert.not.ok(versionSupported('v1', '1.2.0'));
});

budget.run();
store.run();
out.run();
login.run();
