// `npm start`: the Mimo server on its embedded defaults (offline planner, ./data, :6006).
import { resolve } from 'node:path';
import { createInspectionHub, toInspectionRecord } from './agent/inspection-hub.ts';
import { createSessionRecorder } from './recorder/session-recorder.ts';
import { createAgentOrchestrator } from './agent/orchestrator.ts';
import { readConfig } from './config.ts';
import { llmFromEnv } from './llm-from-env.ts';
import { createServer } from './server.ts';
import { startStatelyBridge } from './stately-bridge.ts';

const parsed = readConfig(process.env);
if (!parsed.ok) {
  console.error(`Mimo cannot start:\n${parsed.errors.map((e) => `  - ${e}`).join('\n')}`);
  process.exit(1);
}
const config = parsed.config;
const clock = { now: () => Date.now() };
const recorder = process.env.MIMO_RECORD_DIR ? createSessionRecorder({ dir: resolve(process.env.MIMO_RECORD_DIR), clock }) : undefined;
const llm = llmFromEnv(process.env, recorder ? { onChunk: (chunk, info) => recorder.record(info.taskId, { kind: 'llm_chunk', attempt: info.attempt, chunk }) } : {});
const stately = process.env.MIMO_INSPECT === 'stately' ? await startStatelyBridge(Number(process.env.MIMO_INSPECT_PORT ?? 8080)) : null;
const inspection = createInspectionHub({
  clock,
  forward: (taskId, event) => {
    stately?.forward(event);
    if (recorder) {
      const record = toInspectionRecord(event, clock.now());
      if (record) recorder.record(taskId, { kind: 'inspection', record });
    }
  },
});

let server;
try {
  server = await createServer({
    config,
    clock,
    inspectFor: (taskId) => inspection.observerFor(taskId),
    ...(recorder ? { recorder } : {}),
    control: (services) => createAgentOrchestrator(services, { llm, inspection }),
  });
} catch (error) {
  const code = (error as { code?: string }).code;
  console.error(code === 'EADDRINUSE' ? `Mimo cannot start: port ${config.port} is in use (set MIMO_PORT).` : `Mimo cannot start: ${String(error)}`);
  process.exit(1);
}
const restored = await (server.control as { restore?: () => Promise<number> }).restore?.();

const extensionDir = resolve(new URL('..', import.meta.url).pathname, 'extension', 'dist');
console.log(
  [
    '',
    `Mimo is running: ${config.publicBaseUrl}  (web UI at /, API at /api, Socket.IO at /socket.io/ namespace /mimo)`,
    `LLM: ${llm.kind === 'offline' ? 'the embedded offline planner (set OPENAI_API_KEY / OPENAI_BASE_URL / MIMO_MODEL for a real OpenAI-compatible endpoint)' : `${llm.model} via ${process.env.OPENAI_BASE_URL ?? 'api.openai.com'}`}`,
    `Browser extension: chrome://extensions -> Developer mode -> "Load unpacked" -> ${extensionDir}`,
    `Data: ${config.dataDir}   Artifacts: ${config.artifactDir}${config.token ? '   Token: required (MIMO_TOKEN)' : ''}`,
    ...(restored ? [`Restored ${restored} interrupted task(s) to "ongoing".`] : []),
    ...(stately ? [`Stately Inspector bridge: ${stately.url}`] : []),
    ...(recorder ? [`Recording sessions to ${recorder.dir}`] : []),
    '',
  ].join('\n'),
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) process.exit(1);
    stopping = true;
    await server.close();
    await recorder?.close();
    stately?.close();
    process.exit(0);
  });
}
