// A runtime wired the way runtime/app.ts (startMimo) wires the agent side (openai gateway ->
// orchestrator, inspection hub, optional session recorder), on 127.0.0.1:0 with a memory task
// store and a temp folder; with `mcp`, also the /mcp routes (their browser-shell calls recorded
// with the recorder, as app.ts does) under the URL policy given (fixtureUrlPolicy: loopback
// allowed). Left out for the agent: the URL policy (the fixture site is on loopback, which the
// default policy refuses; the orchestrator's basic http(s) check applies).
// fixtures/sessions/record.ts records through it and the replay tests replay through it, so a
// fixture is replayed by the same composition that recorded it. A composition like app.ts (it
// builds the server), so it lives beside the recorder, not in it: the recorder is a part the
// server is given and imports nothing above it.
import { createSystemClock, type Clock } from '../clock/index.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator, type OrchestratorOptions } from '../agent/orchestrator.ts';
import { createOpenAiGateway } from '../llm/openai-gateway.ts';
import type { LlmGateway } from '../llm/llm-types.ts';
import { createServer, type MimoServer } from '../server.ts';
import { createMemoryTaskStore } from '../store/index.ts';
import { testConfig } from '../test/util.ts';
import { recordInspection, type SessionRecorder } from '../recorder/session-recorder.ts';
import { createMcpRoutes, createMemoryRunStore, type McpRoutes } from '../mcp/index.ts';
import { createUrlPolicy, parseUrlPolicyConfig, type UrlPolicy } from '../url-policy/index.ts';

/** The timing knobs a recording depends on; a replay must use the ones it was recorded with. */
export interface SessionTimings {
  /** T_ack for every action (ms); the runtime default (1500) when absent. */
  ackTimeoutMs?: number;
  /** Page-preparation retry waits; the machine default ([500, 1500]) when absent. */
  pagePrepBackoffMs?: readonly number[];
}

/** The timings fixtures/sessions/*.jsonl were recorded with (short, so the replays are quick). */
export const FIXTURE_TIMINGS: SessionTimings = Object.freeze({
  ackTimeoutMs: 400,
  pagePrepBackoffMs: Object.freeze([200]),
});

/**
 * The URL policy of MCP sessions recorded and replayed here: the defaults with loopback allowed
 * (the fixture site is served on 127.0.0.1); host names do not resolve (no DNS in tests).
 */
export function fixtureUrlPolicy(): UrlPolicy {
  const parsed = parseUrlPolicyConfig({ open: { allow_private_networks: ['loopback'] } }, 'fixture-url-policy');
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return createUrlPolicy({
    config: parsed.config,
    resolve: async (host) => {
      throw Object.assign(new Error(`no DNS in session fixtures: ${host}`), { code: 'ENOTFOUND' });
    },
  });
}

export interface SessionRuntime {
  server: MimoServer;
  url: string;
  /** The /mcp routes, when mounted. */
  mcp?: McpRoutes['mcp'];
  close(): Promise<void>;
}

export interface SessionRuntimeOptions {
  llm: LlmGateway;
  recorder?: SessionRecorder;
  timings?: SessionTimings;
  clock?: Clock;
  /** Server log lines (default: dropped). */
  log?: (entry: object) => void;
  /** More orchestrator options (e.g. a landing-page URL re-check, as npm start's URL policy has). */
  orchestrator?: Partial<Omit<OrchestratorOptions, 'llm' | 'inspection'>>;
  /** Mounts /mcp (browser-shell and the templates, a memory run store) under this URL policy. */
  mcp?: { urlPolicy: UrlPolicy };
}

/** The openai gateway against `baseURL`, its chunks going to `recorder` as main.ts records them. */
export function openAiGatewayFor(options: { baseURL: string; model?: string; recorder?: SessionRecorder }): LlmGateway {
  const { recorder } = options;
  return createOpenAiGateway({
    apiKey: 'mimo-session',
    baseURL: options.baseURL,
    model: options.model ?? 'mimo-scripted-model',
    ...(recorder
      ? { onChunk: (chunk, info) => recorder.record(info.taskId, { kind: 'llm_chunk', attempt: info.attempt, chunk }) }
      : {}),
  });
}

export async function startSessionRuntime(options: SessionRuntimeOptions): Promise<SessionRuntime> {
  const clock = options.clock ?? createSystemClock();
  const { recorder } = options;
  const dir = mkdtempSync(join(tmpdir(), 'mimo-session-'));
  const inspection = createInspectionHub({
    clock,
    ...(recorder ? { forward: recordInspection(recorder, clock) } : {}),
  });
  const config = testConfig(dir, { artifactSecret: 'mimo-session-secret-mimo-session-secret' });
  const timings = options.timings ?? {};
  let mcp: McpRoutes | undefined;
  const mcpOptions = options.mcp;
  const server = await createServer({
    config,
    clock,
    log: options.log ?? (() => {}),
    taskStore: createMemoryTaskStore({ clock }),
    webDir: join(dir, 'no-web'),
    ...(timings.ackTimeoutMs !== undefined ? { ackTimeoutMs: timings.ackTimeoutMs } : {}),
    ...(recorder ? { recorder } : {}),
    inspectFor: (taskId) => inspection.observerFor(taskId),
    ...(mcpOptions
      ? {
          routes: (services) =>
            (mcp = createMcpRoutes(services, {
              urlPolicy: mcpOptions.urlPolicy,
              runStore: createMemoryRunStore(),
              ...(recorder ? { recorder } : {}),
            })),
        }
      : {}),
    control: (services) =>
      createAgentOrchestrator(services, {
        ...options.orchestrator,
        llm: options.llm,
        inspection,
        ...(timings.pagePrepBackoffMs ? { pagePrepBackoffMs: timings.pagePrepBackoffMs } : {}),
      }),
  });
  return {
    server,
    url: server.url,
    ...(mcp ? { mcp: mcp.mcp } : {}),
    async close() {
      await mcp?.mcp.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
