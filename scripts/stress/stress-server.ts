// The server under stress, in its own process: memory store, a scripted LLM, default transport
// settings unless given. Prints {"url"} when listening; answers IPC 'stats' with its memory.
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
    yield { type: 'tool_call', toolCallId: 'call-open', name: 'browser_open', arguments: { url: 'http://127.0.0.1:9/soak' } };
    yield { type: 'done' };
    return;
  }
  yield* say('ok');
};
const durations: number[] = [];
let logged = 0;
const server = await createServer({
  config: testConfig(dir),
  clock,
  log: () => void logged++,
  // The soak's file store gets a small message budget, so its cache is full before the heap
  // baseline is taken and what grows after that is a leak, not the cache filling up.
  taskStore:
    process.env.STRESS_STORE === 'fs'
      ? createTaskStore({ dataDir: join(dir, 'data'), clock, messageCacheBytes: 2 * 2 ** 20 })
      : createMemoryTaskStore({ clock }),
  inspectFor: (taskId) => inspection.observerFor(taskId),
  transport: { pingInterval: Number(process.env.STRESS_PING_INTERVAL ?? 25_000), pingTimeout: Number(process.env.STRESS_PING_TIMEOUT ?? 20_000) },
  control: (services) => {
    const original = services.scheduler.run.bind(services.scheduler);
    services.scheduler.run = async (request) => {
      const out = await original(request);
      durations.push(out.durationMs);
      return out;
    };
    return createAgentOrchestrator(services, { llm, inspection });
  },
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'stats') {
    (globalThis as { gc?: () => void }).gc?.();
    const sorted = [...durations].sort((a, b) => a - b);
    const pick = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
    process.send!({ type: 'stats', memory: process.memoryUsage(), clients: server.io.clientsCount, logged, actions: sorted.length, actionP50Ms: pick(50), actionP99Ms: pick(99) });
    durations.length = 0;
  }
});
process.send!({ type: 'ready', url: server.url });
