import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createOfflinePlanner } from '../offline-planner/index.ts';
import type { LlmMessage } from '../llm-types.ts';
import { collect, textOf, typesOf } from './util.ts';

const planner = createOfflinePlanner();
const ask = (content: string, history: LlmMessage[] = []) =>
  collect(
    planner.streamChat({
      taskId: 't',
      messages: [{ role: 'system', content: 'You are Mimo.' }, ...history, { role: 'user', content }],
      tools: [],
    }),
  );

const s = suite('offline planner: chat without a browser');

s('identifies itself as the offline gateway', () => {
  assert.is(planner.kind, 'offline');
  assert.is(planner.model, 'mimo-offline-planner');
});

for (const greeting of ['hello', 'Hi there!', 'good morning', 'hey']) {
  s(`greets honestly and lists what it can do: "${greeting}"`, async () => {
    const events = await ask(greeting);
    const text = textOf(events);
    assert.ok(text.startsWith('Offline planner (no LLM configured): hello!'), text);
    assert.match(text, /summarise/);
    assert.match(text, /OPENAI_API_KEY/);
    assert.ok(events.filter((e) => e.type === 'delta').length > 3, 'streamed as several deltas');
    assert.equal(events.at(-1), { type: 'done', finishReason: 'stop' });
    assert.not.ok(
      events.some((e) => e.type === 'tool_call'),
      'no browser needed',
    );
  });
}

for (const question of ['what can you do?', 'help', 'How do I configure a real LLM?', 'who are you']) {
  s(`answers "${question}" with its abilities and the configuration variables`, async () => {
    const text = textOf(await ask(question));
    assert.ok(text.startsWith('Offline planner (no LLM configured): '));
    for (const variable of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'MIMO_MODEL'])
      assert.ok(text.includes(variable), variable);
    for (const ability of ['summarise', 'table', 'click', 'type', 'new tab'])
      assert.ok(text.includes(ability), ability);
  });
}

s('says clearly when it cannot map a request', async () => {
  const text = textOf(await ask('write me a poem about autumn leaves'));
  assert.match(text, /^Offline planner \(no LLM configured\): I could not map this request/);
  assert.match(text, /poem about autumn leaves/);
  assert.match(text, /OPENAI_API_KEY/);
});

s('answers the last user message, not an earlier one', async () => {
  const history: LlmMessage[] = [
    { role: 'user', content: 'write me a poem' },
    { role: 'assistant', content: 'Offline planner (no LLM configured): I could not map this request ...' },
  ];
  const text = textOf(await ask('thanks', history));
  assert.match(text, /you're welcome/);
});

s('a conversation without a user message gets the help text', async () => {
  const events = await collect(
    planner.streamChat({ taskId: 't', messages: [{ role: 'system', content: 'x' }], tools: [] }),
  );
  assert.match(textOf(events), /here is what I can do/);
});

s('is deterministic: the same input gives the same events', async () => {
  assert.equal(await ask('what can you do?'), await ask('what can you do?'));
});

s('an aborted signal yields LLM_ABORTED and nothing else', async () => {
  const events = await collect(
    planner.streamChat({
      taskId: 't',
      messages: [{ role: 'user', content: 'hello' }],
      tools: [],
      signal: AbortSignal.abort(),
    }),
  );
  assert.equal(typesOf(events), ['error']);
  assert.is(events[0]!.type === 'error' && events[0]!.code, 'LLM_ABORTED');
});

s('aborting while it streams stops the stream with LLM_ABORTED', async () => {
  const controller = new AbortController();
  const seen: string[] = [];
  for await (const event of planner.streamChat({
    taskId: 't',
    messages: [{ role: 'user', content: 'hello' }],
    tools: [],
    signal: controller.signal,
  })) {
    seen.push(event.type === 'error' ? event.code : event.type);
    if (seen.length === 2) controller.abort();
  }
  assert.equal(seen, ['delta', 'delta', 'LLM_ABORTED']);
});

s.run();
