// startMimo: the whole product from environment variables: config, LLM (OpenAI-compatible or the
// offline planner), URL policy, MCP, the agent orchestrator, live inspection (and the Stately
// bridge), the session recorder. `npm start`, the demo and end-to-end tests all start it here.
import { resolve } from 'node:path';
import { createInspectionHub } from './agent/inspection-hub.ts';
import { createAgentOrchestrator } from './agent/orchestrator.ts';
import { createSystemClock } from './clock/index.ts';
import { readConfig, type MimoConfig } from './config.ts';
import type { LlmGateway } from './llm/llm-types.ts';
import { llmFromEnv } from './llm-from-env.ts';
import { createMcpRoutes, readMcpProfile, type McpRoutes } from './mcp/index.ts';
import { createSessionRecorder, recordInspection, type SessionRecorder } from './recorder/session-recorder.ts';
import { createServer, type Log, type MimoServer } from './server.ts';
import { startStatelyBridge } from './stately-bridge.ts';
import { createSystemResolver, createUrlPolicy, describePolicy, loadUrlPolicyConfig, type PolicyDescription } from './url-policy/index.ts';

export interface MimoApp {
  server: MimoServer;
  config: MimoConfig;
  llm: LlmGateway;
  policy: PolicyDescription;
  restored: number;
  recorder: SessionRecorder | undefined;
  statelyUrl: string | undefined;
  close(): Promise<void>;
}

export class StartupError extends Error {}

export async function startMimo(env: Record<string, string | undefined>, overrides: { log?: Log; llm?: LlmGateway; config?: Partial<MimoConfig> } = {}): Promise<MimoApp> {
  const parsed = readConfig(env);
  if (!parsed.ok) throw new StartupError(parsed.errors.join('\n'));
  const config = { ...parsed.config, ...overrides.config };
  const profile = readMcpProfile(env.MIMO_MCP_PROFILE);
  if (!profile.ok) throw new StartupError(profile.error);
  const loadedPolicy = await loadUrlPolicyConfig(env.MIMO_URL_POLICY);
  if (!loadedPolicy.ok) throw new StartupError(`MIMO_URL_POLICY: ${loadedPolicy.errors.join('; ')}`);
  const urlPolicy = createUrlPolicy({ config: loadedPolicy.config, resolve: createSystemResolver() });

  const clock = createSystemClock();
  const recorder = env.MIMO_RECORD_DIR ? createSessionRecorder({ dir: resolve(env.MIMO_RECORD_DIR), clock }) : undefined;
  const llm =
    overrides.llm ?? llmFromEnv(env, recorder ? { onChunk: (chunk, info) => recorder.record(info.taskId, { kind: 'llm_chunk', attempt: info.attempt, chunk }) } : {});
  const stately = env.MIMO_INSPECT === 'stately' ? await startStatelyBridge(Number(env.MIMO_INSPECT_PORT ?? 8080)) : null;
  const recordToFile = recorder ? recordInspection(recorder, clock) : undefined;
  const inspection = createInspectionHub({
    clock,
    forward: (taskId, event) => {
      stately?.forward(event);
      recordToFile?.(taskId, event);
    },
  });

  let mcp: McpRoutes | undefined;
  const server = await createServer({
    config,
    clock,
    ...(overrides.log ? { log: overrides.log } : {}),
    inspectFor: (taskId) => inspection.observerFor(taskId),
    ...(recorder ? { recorder } : {}),
    routes: (services) => (mcp = createMcpRoutes(services, { profile: profile.profile, urlPolicy, inspectFor: (runId: string) => inspection.observerFor(runId) })),
    control: (services) =>
      createAgentOrchestrator(services, {
        llm,
        inspection,
        checkUrl: (url) => urlPolicy.check(url),
        checkFinalUrl: (url) => urlPolicy.checkFinal(url),
      }),
  });
  const restored = (await (server.control as { restore?: () => Promise<number> } | undefined)?.restore?.()) ?? 0;
  return {
    server,
    config,
    llm,
    policy: describePolicy(urlPolicy),
    restored,
    recorder,
    statelyUrl: stately?.url,
    async close() {
      await mcp?.mcp.close();
      await server.close();
      await recorder?.close();
      stately?.close();
    },
  };
}
