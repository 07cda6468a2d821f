// The real Mimo server (runtime/server.ts + the agent orchestrator) for the web UI's end-to-end
// test: a paced scripted LLM instead of a model, a temp data folder that survives a restart,
// and the built UI served from `webDir`.
import { createSystemClock } from '../../../../runtime/clock/index.ts';
import { join } from 'node:path';
import { createInspectionHub } from '../../../../runtime/agent/inspection-hub.ts';
import { basicUrlCheck, createAgentOrchestrator } from '../../../../runtime/agent/orchestrator.ts';
import type { MimoConfig } from '../../../../runtime/config.ts';
import { createServer, type MimoServer } from '../../../../runtime/server.ts';
import type { LlmGateway } from '../../../../runtime/llm/llm-types.ts';
import { pacedLlm, text, textThenTool } from './paced-llm.ts';

export const OPEN_TEXT = ["I'll open ", '**example.com** ', 'and look at it.'];
export const ANSWER_TEXT = ['The page is ', '**Example Domain**', ': it is for use in ', 'illustrative examples.'];

export async function startRealRuntime(options: {
  dir: string;
  webDir: string;
  port?: number;
  token?: string;
  llm?: LlmGateway;
  confirmSteps?: 'ask';
}): Promise<MimoServer> {
  const port = options.port ?? 0;
  const config: MimoConfig = {
    port,
    host: '127.0.0.1',
    dataDir: join(options.dir, 'data'),
    artifactDir: join(options.dir, 'artifacts'),
    token: options.token,
    corsOrigins: ['http://localhost:3000'],
    snapshotDebug: false,
    publicBaseUrl: `http://127.0.0.1:${port}`,
    artifactSecret: 'e2e-secret-e2e-secret-e2e-secret',
  };
  const clock = createSystemClock();
  const inspection = createInspectionHub({ clock });
  const llm =
    options.llm ??
    pacedLlm([
      () => textThenTool(OPEN_TEXT, 'browser_open', { url: 'https://example.com/' }, 'call-open'),
      () => text(...ANSWER_TEXT),
    ]);
  const server = await createServer({
    config,
    clock,
    log: () => {},
    webDir: options.webDir,
    ackTimeoutMs: 2_000,
    inspectFor: (taskId) => inspection.observerFor(taskId),
    control: (services) =>
      createAgentOrchestrator(services, {
        llm,
        inspection,
        checkUrl: basicUrlCheck,
        pagePrepBackoffMs: [20],
        ...(options.confirmSteps ? { confirmSteps: options.confirmSteps } : {}),
      }),
  });
  await (server.control as { restore?: () => Promise<number> }).restore?.();
  return server;
}
