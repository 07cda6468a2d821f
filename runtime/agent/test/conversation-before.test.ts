// conversationBefore: what the LLM sees of a task's earlier turns, whatever order the log stored
// them in (a message sent while a turn ran is stored before that turn's answer).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Message } from '../../store/task-types.ts';
import { conversationBefore } from '../task-history.ts';

const user = (id: string, content: string): Message => ({ id, role: 'user', content, timestamp: 0 });
const answer = (id: string, content: string, replyTo?: string): Message => ({
  id,
  role: 'assistant',
  content,
  timestamp: 0,
  ...(replyTo ? { meta: { replyTo } } : {}),
});
const tool = (id: string): Message => ({ id, role: 'tool', content: '{}', timestamp: 0 });
const show = (list: Array<{ role: string; content: string }>) => list.map((m) => `${m.role}:${m.content}`);

const test = suite('conversation before a message');

test("a message stored while the previous turn ran: that turn's answer still comes with its question", () => {
  const log = [
    user('u1', 'first'),
    tool('t1'),
    user('u2', 'second'),
    answer('a1', 'First answer.', 'u1'),
    user('u3', 'third'),
    answer('a2', 'Second answer.', 'u2'),
  ];
  assert.equal(show(conversationBefore(log, 'u2')), ['user:first', 'assistant:First answer.']);
  assert.equal(show(conversationBefore(log, 'u3')), [
    'user:first',
    'assistant:First answer.',
    'user:second',
    'assistant:Second answer.',
  ]);
});

test('answers stored without replyTo (older logs) keep their place; the last 20 entries', () => {
  assert.equal(show(conversationBefore([user('u1', 'a'), answer('a1', 'b'), user('u2', 'c')], 'u2')), [
    'user:a',
    'assistant:b',
  ]);
  const long = Array.from({ length: 15 }, (_, i) => [user(`u${i}`, `q${i}`), answer(`a${i}`, `r${i}`, `u${i}`)]).flat();
  const out = conversationBefore([...long, user('last', 'now')], 'last');
  assert.is(out.length, 20);
  assert.equal(show(out).slice(-2), ['user:q14', 'assistant:r14']);
});

test.run();
