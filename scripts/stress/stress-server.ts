// The server under stress, in its own process: memory store, a scripted LLM, default transport
// settings unless given. Prints {"url"} when listening; answers IPC 'stats' with its memory.
// An uncaught exception or unhandled rejection ends this process (Node's default): the parent
// treats any exit before it asks as a crash.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInspectionHub } from '../../runtime/agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../../runtime/agent/orchestrator.ts';
import { createServer } from '../../runtime/server.ts';
import { createMemoryTaskStore } from '../../runtime/store/index.ts';
import { say, scriptedLlm } from '../../runtime/test/scripted-llm.ts';
import { testConfig } from '../../runtime/test/util.ts';

const dir = mkdtempSync(join(tmpdir(), 'mimo-stress-'));
const clock = { now: () => Date.now() };
const inspection = createInspectionHub({ clock });
const llm = scriptedLlm([]);
llm.streamChat = async function* () {
  yield* say('ok');
};
let logged = 0;
const server = await createServer({
  config: testConfig(dir),
  clock,
  log: () => void logged++,
  taskStore: createMemoryTaskStore({ clock }),
  transport: { pingInterval: Number(process.env.STRESS_PING_INTERVAL ?? 25_000), pingTimeout: Number(process.env.STRESS_PING_TIMEOUT ?? 20_000) },
  control: (services) => createAgentOrchestrator(services, { llm, inspection }),
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'stats') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({ type: 'stats', memory: process.memoryUsage(), clients: server.io.clientsCount, logged });
  }
});
process.send!({ type: 'ready', url: server.url });
