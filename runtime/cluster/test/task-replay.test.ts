// Which messages a node that takes a task over runs again (pure: stored messages in, list out).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { replayOf } from '../task-replay.ts';

const user = (id: string, trace = `trace-${id}`) => ({
  id,
  role: 'user',
  content: `say ${id}`,
  meta: { traceId: trace },
});
const answer = (id: string, trace: string) => ({
  id,
  role: 'assistant',
  content: `answer ${id}`,
  meta: { traceId: trace },
});
const note = (id: string) => ({ id, role: 'system', content: 'a note' });
const ids = (list: Array<{ id: string }>) => list.map((m) => m.id);

const replay = suite('task replay');

replay('the interrupted turn and every message queued behind it, in order, each with its traceId', () => {
  // u2 and u3 arrived during u1's turn (stored before u1's answer would have been).
  const list = replayOf([user('u0'), answer('a0', 'trace-u0'), user('u1'), user('u2'), note('n'), user('u3')]);
  assert.equal(ids(list), ['u1', 'u2', 'u3']);
  assert.equal(list[0], { id: 'u1', content: 'say u1', traceId: 'trace-u1' });
});

replay('an answer stored after queued messages still marks its own message (by traceId), not the queued ones', () => {
  assert.equal(ids(replayOf([user('u1'), user('u2'), answer('a1', 'trace-u1')])), ['u2']);
  assert.equal(ids(replayOf([user('u1'), user('u2'), answer('a1', 'trace-u1'), answer('a2', 'trace-u2')])), []);
});

replay('a client traceId is kept; messages stored without one count as answered by a later assistant message', () => {
  assert.equal(replayOf([user('u1', 'client-trace')])[0]!.traceId, 'client-trace');
  const old = [
    { id: 'u1', role: 'user', content: 'x' },
    { id: 'a1', role: 'assistant', content: 'y' },
    { id: 'u2', role: 'user', content: 'z' },
  ];
  assert.equal(replayOf(old), [{ id: 'u2', content: 'z', traceId: 'trace-u2' }]);
});

replay('nothing to run: no messages, or every message answered', () => {
  assert.equal(replayOf([]), []);
  assert.equal(replayOf([user('u1'), answer('a1', 'trace-u1'), note('n')]), []);
});

replay(
  'a turn that failed (h22a outcome note with its traceId) has ended: not run again, the messages behind it are',
  () => {
    const failed = (id: string, trace: string) => ({
      id,
      role: 'system',
      content: 'The task failed: the browser extension went offline',
      meta: { outcome: 'error', error: { code: 'PLUGIN_OFFLINE', message: 'offline' }, traceId: trace },
    });
    assert.equal(ids(replayOf([user('u1'), user('u2'), failed('f1', 'trace-u1')])), ['u2']);
    assert.equal(ids(replayOf([user('u1'), failed('f1', 'trace-u1')])), []);
    // A plain system note (a takeover note) ends nothing.
    assert.equal(ids(replayOf([user('u1'), note('n')])), ['u1']);
  },
);

replay.run();
