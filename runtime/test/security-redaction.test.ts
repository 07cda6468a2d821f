// The one redaction module (runtime/redaction/redact.ts): secret-named fields, registered secret
// values inside any string, JSON-safety (cycles, class instances, depth), and the password-field
// detection that feeds the registry.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createSecretRegistry,
  isSecretKey,
  passwordTargetsOf,
  REDACTED,
  redactDeep,
  redactingLog,
  redactSecretValues,
} from '../redaction/redact.ts';
import { redactingTaskStore } from '../redaction/redacting-task-store.ts';
import { createMemoryTaskStore } from '../store/index.ts';

const test = suite('redaction');

test('secret-named fields keep their shape, not their value', () => {
  const input = {
    username: 'ada',
    password: 'hunter22',
    nested: {
      apiKey: 'sk-123',
      api_key: 'k',
      Authorization: 'Bearer x',
      cookie: 'a=b',
      client_secret: 's',
      accessToken: 't',
      credentials: { user: 'u', pass: 'p' },
    },
    list: [{ passwd: 'x' }, { pin: '1234' }],
    empty: { password: '' },
    fine: { passage: 'keeps', pinned: true, tokens: 42, spinner: 'ok', typed: 'ok' },
  };
  const out = redactDeep(input) as typeof input;
  assert.is(out.username, 'ada');
  assert.is(out.password, REDACTED);
  for (const value of Object.values(out.nested)) assert.is(value, REDACTED);
  assert.equal(out.list, [{ passwd: REDACTED }, { pin: REDACTED }]);
  assert.equal(out.empty, { password: '' });
  assert.equal(out.fine, input.fine);
  assert.is(input.password, 'hunter22', 'the input is not changed');
});

test('registered secrets are replaced inside any string, longest first', () => {
  const secrets = createSecretRegistry();
  secrets.add('correct horse');
  secrets.add('correct horse battery');
  const out = redactDeep(
    {
      frame: { params: { text: 'correct horse battery' } },
      note: 'typed "correct horse" then "correct horse battery!"',
      other: 'abc',
    },
    { secrets },
  );
  assert.equal(out, {
    frame: { params: { text: REDACTED } },
    note: `typed "${REDACTED}" then "${REDACTED}!"`,
    other: 'abc',
  });
  assert.is(secrets.size, 2);
});

test('secrets under 4 characters are redacted too, where they stand alone (issue 23)', () => {
  const secrets = createSecretRegistry();
  secrets.add('42');
  secrets.add('x!');
  secrets.add('');
  assert.is(secrets.size, 2);
  const out = redactDeep(
    {
      text: '42',
      note: 'the pin is 42. Type "42" now; x! too',
      keep: ['420', 'task-42', 'http://a.test/42', 'v4.2', 'a42', '42b', 'me@42'],
    },
    { secrets },
  );
  assert.equal(out, {
    text: REDACTED,
    note: `the pin is ${REDACTED}. Type "${REDACTED}" now; ${REDACTED} too`,
    keep: ['420', 'task-42', 'http://a.test/42', 'v4.2', 'a42', '42b', 'me@42'],
  });
});

test('JSON-safe output: cycles, class instances, depth, functions, bigint', () => {
  class ActorRef {
    sessionId = 'x:1';
    system = { huge: true };
  }
  const a: Record<string, unknown> = { name: 'a', ref: new ActorRef(), fn: () => 1, big: 10n, when: new Date(0) };
  a.self = a;
  const out = redactDeep(a, { maxDepth: 3 }) as Record<string, unknown>;
  assert.equal(out, {
    name: 'a',
    ref: { ref: 'x:1' },
    big: '10',
    when: '1970-01-01T00:00:00.000Z',
    self: '[circular]',
  });
  assert.equal(redactDeep({ a: { b: { c: { d: 1 } } } }, { maxDepth: 2 }), { a: { b: '[depth]' } });
  JSON.stringify(out);
  const error = Object.assign(new Error('failed for hunter22'), { code: 'E_X' });
  const secrets = createSecretRegistry();
  secrets.add('hunter22');
  const logged = redactDeep({ error }, { secrets }) as {
    error: { name: string; message: string; code: string; stack: string };
  };
  assert.equal(
    [logged.error.name, logged.error.message, logged.error.code],
    ['Error', `failed for ${REDACTED}`, 'E_X'],
  );
  assert.not.match(logged.error.stack, /hunter22/);
});

test('password fields of a DOM index', () => {
  const targets = passwordTargetsOf([
    { clickId: 1, tag: 'input', type: 'text', xpath: '/a' },
    { clickId: 2, tag: 'INPUT', type: 'Password', xpath: '/b' },
    { clickId: 3, tag: 'div', type: 'password' },
  ]);
  assert.equal([...targets.clickIds], [2]);
  assert.equal([...targets.xpaths], ['/b']);
});

test('isSecretKey', () => {
  for (const key of [
    'password',
    'Password',
    'userPassword',
    'new_password',
    'x-mimo-token',
    'token',
    'secret',
    'apikey',
    'set-cookie',
  ])
    assert.ok(isSecretKey(key), key);
  for (const key of ['passage', 'tokens', 'tokenCount', 'typed', 'text', 'title', 'url', 'pinned'])
    assert.not.ok(isSecretKey(key), key);
});

test('redactingLog', () => {
  const lines: object[] = [];
  const secrets = createSecretRegistry();
  secrets.add('s3cr3t-value');
  const log = redactingLog((e: object) => lines.push(e), secrets);
  log({ event: 'x', password: 'p', message: 'failed with s3cr3t-value' });
  assert.equal(lines, [{ event: 'x', password: REDACTED, message: `failed with ${REDACTED}` }]);
});

test('the task store as the runtime writes it: typed secrets never persist, the shape is kept', async () => {
  const secrets = createSecretRegistry();
  const store = createMemoryTaskStore({ clock: { now: () => 1 } });
  const redacting = redactingTaskStore(store, secrets);
  const taskId = '01HR9ZQ6ZC0Y0A7N4V1E8W2K3M';
  await redacting.createTaskIfAbsent({ taskId, title: 't' });
  secrets.add('hunter2-secret');
  const deep = {
    context: {
      messages: [
        { role: 'assistant', toolCalls: [{ name: 'browser_type', arguments: { clickId: 4, text: 'hunter2-secret' } }] },
      ],
      token: 'kept: no key rule here',
    },
  };
  await redacting.updateTask(taskId, { machineSnapshot: deep });
  await redacting.appendMessage(taskId, {
    id: 'm1',
    role: 'tool',
    content: 'typed hunter2-secret',
    timestamp: 1,
    meta: { paramsSummary: 'text="hunter2-secret"' },
  });
  const stored = await store.getTask(taskId);
  assert.equal(stored!.machineSnapshot, {
    context: {
      messages: [
        { role: 'assistant', toolCalls: [{ name: 'browser_type', arguments: { clickId: 4, text: REDACTED } }] },
      ],
      token: 'kept: no key rule here',
    },
  });
  const [message] = await store.listMessages(taskId);
  assert.is(message!.content, `typed ${REDACTED}`);
  assert.equal(message!.meta, { paramsSummary: `text="${REDACTED}"` });
  assert.is(redactSecretValues(deep, createSecretRegistry()), deep, 'nothing registered: the same object');
});

test.run();
