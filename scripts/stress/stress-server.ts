// The server under stress, in its own process: memory store, a scripted LLM, default transport
// settings unless given. Sends {type:'ready', url} when listening; answers IPC 'stats' with its
// memory after a full GC and the store operations still pending (actions are counted by the fake
// plugins, see soak.ts).
// An uncaught exception or unhandled rejection ends this process (Node's default): the parent
// treats any exit before it asks as a crash.
import { createSystemClock } from '../../runtime/clock/index.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInspectionHub } from '../../runtime/agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../../runtime/agent/orchestrator.ts';
import { createServer } from '../../runtime/server.ts';
import { createMemoryTaskStore, createTaskStore } from '../../runtime/store/index.ts';
import { say, scriptedLlm } from '../../runtime/test/scripted-llm.ts';
import { testConfig } from '../../runtime/test/util.ts';

const dir = mkdtempSync(join(tmpdir(), 'mimo-stress-'));
const clock = createSystemClock();
const inspection = createInspectionHub({ clock });
// STRESS_LLM=browser: every turn opens a page (task_start, attach, wait, page prep, dom index)
// and then answers; otherwise the turn only answers.
const browserTurns = process.env.STRESS_LLM === 'browser';
const llm = scriptedLlm([]);
llm.streamChat = async function* (input) {
  const opened = input.messages.some((m) => m.role === 'tool');
  if (browserTurns && !opened) {
    yield {
      type: 'tool_call',
      toolCallId: 'call-open',
      name: 'browser_open',
      arguments: { url: 'http://127.0.0.1:9/soak' },
    };
    yield { type: 'done' };
    return;
  }
  yield* say('ok');
};
let logged = 0;
// The soak's file store gets a small message budget, so its cache is full before the heap
// baseline is taken and what grows after that is a leak, not the cache filling up.
const taskStore =
  process.env.STRESS_STORE === 'fs'
    ? createTaskStore({ dataDir: join(dir, 'data'), clock, messageCacheBytes: 2 * 2 ** 20 })
    : createMemoryTaskStore({ clock });
const server = await createServer({
  config: testConfig(dir),
  clock,
  log: () => void logged++,
  taskStore,
  inspectFor: (taskId) => inspection.observerFor(taskId),
  transport: {
    pingInterval: Number(process.env.STRESS_PING_INTERVAL ?? 25_000),
    pingTimeout: Number(process.env.STRESS_PING_TIMEOUT ?? 20_000),
  },
  control: (services) => createAgentOrchestrator(services, { llm, inspection }),
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'stats') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({
      type: 'stats',
      memory: process.memoryUsage(),
      clients: server.io.clientsCount,
      logged,
      storePending: taskStore.pendingOperations?.() ?? 0,
    });
  }
});
process.send!({ type: 'ready', url: server.url });
