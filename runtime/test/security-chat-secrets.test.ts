// Issue 23, Secrets: a password the person writes in the chat ("type hunter2 into the password
// field") is never stored in the message, the task title or index.jsonl, never recorded, never
// forwarded to the inspection stream (what the Stately bridge relays) and never shown in the live
// chatDelta, not even when the model's reply splits it over two deltas; the model still gets it.
// Real sockets, a scripted LLM, the fake plugin, a recorder and inspection hub wired like startMimo.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import { secretsInChat } from '../redaction/chat-secrets.ts';
import { createSecretRegistry, redactDeep } from '../redaction/redact.ts';
import { createStreamRedactor, heldTail } from '../redaction/redacting-event-sink.ts';
import { createChunkRedactor } from '../redaction/chunk-redactor.ts';
import { completionChunks } from '../llm/mock-openai-chunks.ts';
import { createSessionRecorder } from '../recorder/session-recorder.ts';
import { startFakePlugin, okAnswer } from '../test-util/fake-plugin.ts';
import { startStatelyBridge } from '../stately-bridge.ts';
import WebSocket from 'ws';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, startRuntime } from './util.ts';

const TASK = '01JD0000000000000000000C01';
const PW = 'hunter2-Xq';

const e2e = suite('chat secrets through the runtime');

e2e(
  'typed in the chat: the model gets it; store, title, index.jsonl, recording, inspection and chatDelta do not',
  async () => {
    const recordDir = mkdtempSync(join(tmpdir(), 'mimo-chat-secrets-'));
    const dataDir = mkdtempSync(join(tmpdir(), 'mimo-chat-secrets-data-'));
    const secrets = createSecretRegistry();
    const redact = <T>(value: T) => redactDeep(value, { secrets, maxDepth: 64 }) as T;
    const recorder = createSessionRecorder({ dir: recordDir, clock: { now: () => Date.now() }, redact });
    // The Stately bridge as startMimo runs it, with a WebSocket client reading what it relays.
    const bridge = await startStatelyBridge({
      port: 0,
      host: '127.0.0.1',
      token: undefined,
      gate: { bindHost: '127.0.0.1' },
      secrets,
    });
    const bridgePort = Number(new URL(bridge.url).port);
    const bridged: string[] = [];
    const viewer = new WebSocket(`ws://127.0.0.1:${bridgePort}/`, {
      headers: { Origin: `http://127.0.0.1:${bridgePort}` },
    });
    viewer.on('message', (m) => bridged.push(String(m)));
    await new Promise((resolve, reject) => (viewer.once('open', resolve), viewer.once('error', reject)));
    const inspection = createInspectionHub({
      clock: { now: () => Date.now() },
      redact,
      forward: (_taskId, event) => bridge.forward(event),
    });
    // The model types the password, then echoes it split over two deltas.
    const llm = scriptedLlm([
      () => callTool('browser_type', { tabId: 1, clickId: 2, text: PW }),
      () => say('Typed hun', 'ter2-Xq for you.'),
    ]);
    const rt = await startRuntime({
      dir: dataDir,
      persistent: true,
      secrets,
      recorder,
      ackTimeoutMs: 500,
      inspectFor: (taskId) => inspection.observerFor(taskId),
      control: (services) => createAgentOrchestrator(services, { llm, inspection, pagePrepBackoffMs: [20] }),
    });
    const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: okAnswer });
    const web = await connectWeb(rt.server.url);
    try {
      const content = `Type ${PW} into the password field`;
      const ack = await web.timeout(5_000).emitWithAck('frontend_message', {
        v: 1,
        type: 'user_message',
        id: 'evt-user-1',
        timestamp: Date.now(),
        taskId: TASK,
        content,
      });
      assert.is(ack.ok, true);
      await eventually(
        () => web.events.some((e) => e.event.type === 'chatDelta' && e.event.finished),
        5_000,
        'finished chatDelta',
      );
      // The model saw the request as written (it needs the value to type it).
      assert.ok(JSON.stringify(llm.calls[0]!.messages).includes(PW));
      // The live stream: redacted, the split echo included; nothing else lost.
      const shown = web.events
        .filter((e) => e.event.type === 'chatDelta')
        .map((e) => e.event.delta.content)
        .join('');
      assert.is(shown, 'Typed [redacted] for you.');
      assert.not.ok(JSON.stringify(web.events).includes('hunter2'), 'no frontend event carries it');
      // The person's message as every window shows it (userMessage, with its seq): redacted too.
      const echoed = web.events.find((e) => e.event.type === 'userMessage');
      assert.ok(echoed, 'the userMessage event was shown');
      assert.is(echoed!.event.content, 'Type [redacted] into the password field');
      assert.type(echoed!.seq, 'number');
      const detail = (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data;
      assert.is(detail.task.title, 'Type [redacted] into the password field');
      // The task has no tab, so the browser_type fails and the turn ends on that failure (h22a's
      // honest outcomes): its cause is stored as the outcome note, after the redacted answer.
      assert.equal(
        detail.messages.map((m: { content: string }) => m.content),
        [
          'Type [redacted] into the password field',
          'Typed [redacted] for you.',
          'The task failed: the task has no tab yet: call browser_open first',
        ],
      );
    } finally {
      web.close();
      viewer.close();
      bridge.close();
      await plugin.close();
      await rt.close();
      await recorder.close();
    }
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? files(join(dir, d.name)) : [readFileSync(join(dir, d.name), 'utf8')],
      );
    const stored = files(dataDir).join('\n');
    assert.match(stored, /"title":"Type \[redacted\] into the password field"/, 'index.jsonl has the redacted title');
    assert.not.ok(stored.includes('hunter2'), 'nothing under the data dir (messages, index.jsonl, snapshot) holds it');
    const recorded = files(recordDir).join('\n');
    assert.match(recorded, /user_message/);
    assert.not.ok(recorded.includes('hunter2'), 'the recording does not hold it');
    const relayed = bridged.join('\n');
    assert.match(relayed, /USER_MESSAGE/, 'the bridge relayed the task actor');
    assert.not.ok(relayed.includes('hunter2'), 'the Stately bridge stream does not hold it');
    rmSync(recordDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  },
);

e2e.run();

const found = suite('password-like values in chat text');

found('what is found and what is not', () => {
  const cases: Array<[string, string[]]> = [
    ['type hunter2 into the password field', ['hunter2']],
    ['Log in as ada, type "correct horse battery" into the password field', ['correct horse battery']],
    ['my password is S3cret-Passw0rd!', ['S3cret-Passw0rd!', 'S3cret-Passw0rd']],
    ['Password: abc', ['abc']],
    ['PIN 4711', ['4711']],
    ['enter 123456 as the one-time code', ['123456']],
    ['Passwort ist geheim123', ['geheim123']],
    ['le mot de passe est soleil', ['soleil']],
    ['mi contraseña es gato', ['gato']],
    ['pw=x', ['x']],
    ['type it into the password field', []],
    ['type my password into the password field', []],
    ['open the password reset page', []],
    ['change password for bank.test', []],
    ['Search for password managers', []],
    ['pin 3 tabs and close the rest', []],
    ['pin the tab', []],
    ['What is the password policy?', []],
    ['my pin is 42', ['42']],
  ];
  for (const [text, expected] of cases) assert.equal(secretsInChat(text), expected, text);
});

found('the stream redactor holds back what could become a secret, and only that', () => {
  const secrets = createSecretRegistry();
  secrets.add('hunter2');
  assert.is(heldTail('say hun', secrets.values()), 3);
  assert.is(heldTail('say hello', secrets.values()), 0);
  const stream = createStreamRedactor(secrets);
  assert.equal(
    [stream.push('Typed hun'), stream.push('te'), stream.push('r2 now'), stream.flush()],
    ['Typed ', '', '[redacted] now', ''],
  );
  const cut = createStreamRedactor(secrets);
  assert.equal([cut.push('ends with hunt'), cut.flush()], ['ends with ', 'hunt']);
});

found(
  'raw LLM chunks as recorded: a secret split over text and tool-argument fragments is redacted across them',
  () => {
    const secrets = createSecretRegistry();
    secrets.add(PW);
    const redact = createChunkRedactor(secrets);
    const chunks = completionChunks({
      text: ['Typed hun', 'ter2', '-Xq for you.'],
      toolCalls: [
        { id: 'c1', name: 'browser_type', arguments: JSON.stringify({ tabId: 1, clickId: 2, text: PW }), pieces: 7 },
      ],
    });
    assert.ok(
      chunks.filter((c) => JSON.stringify(c).includes('hunter2')).length === 0 &&
        chunks.some((c) => JSON.stringify(c).includes('ter2')),
      'the secret is split in the input',
    );
    const out = chunks.map((c) => redact(c, { taskId: 'T', attempt: 1 }) as typeof c);
    for (const c of out)
      assert.not.ok(
        /hun|ter2|-Xq/.test(JSON.stringify(c.choices).replace('[redacted]', '')),
        JSON.stringify(c.choices),
      );
    const text = out.map((c) => c.choices[0]?.delta.content ?? '').join('');
    const args = out
      .map((c) => c.choices[0]?.delta.tool_calls?.map((t) => t.function?.arguments ?? '').join('') ?? '')
      .join('');
    assert.is(text, 'Typed [redacted] for you.');
    assert.equal(JSON.parse(args), { tabId: 1, clickId: 2, text: '[redacted]' });
    // No secrets registered: the chunk object passes as it is.
    const plain = completionChunks({ text: 'hello' })[1];
    assert.is(createChunkRedactor(createSecretRegistry())(plain, { taskId: 'T', attempt: 1 }), plain);
  },
);

found.run();
