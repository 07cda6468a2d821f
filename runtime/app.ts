// startMimo: the whole product from environment variables: config, LLM (OpenAI-compatible or the
// offline planner), URL policy, MCP, the agent orchestrator, live inspection (and the Stately
// bridge), the session recorder. `npm start`, the demo and end-to-end tests all start it here.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { loadOrCreateAccessToken, oneClickUrl } from './access-token.ts';
import { createInspectionHub } from './agent/inspection-hub.ts';
import { readClusterConfig, startClusterNode, type ClusterNode } from './cluster/cluster-mode.ts';
import { createAgentOrchestrator } from './agent/orchestrator.ts';
import { createSystemClock } from './clock/index.ts';
import { readConfig, type MimoConfig } from './config.ts';
import type { LlmGateway } from './llm/llm-types.ts';
import { llmFromEnv } from './llm-from-env.ts';
import { createMcpRoutes, readMcpProfile, type McpRoutes } from './mcp/index.ts';
import { readMcpConsequentialPolicy } from './mcp/browser/consequential-policy.ts';
import { createSessionRecorder, recordInspection, type SessionRecorder } from './recorder/session-recorder.ts';
import { createServer, gateOptionsOf, type Log, type MimoServer } from './server.ts';
import { startStatelyBridge } from './stately-bridge.ts';
import { createSecretRegistry, redactDeep } from './redaction/redact.ts';
import { createChunkRedactor } from './redaction/chunk-redactor.ts';
import {
  createSystemResolver,
  createUrlPolicy,
  describePolicy,
  loadUrlPolicyConfig,
  type PolicyDescription,
} from './url-policy/index.ts';

export interface MimoApp {
  server: MimoServer;
  config: MimoConfig;
  llm: LlmGateway;
  policy: PolicyDescription;
  restored: number;
  recorder: SessionRecorder | undefined;
  statelyUrl: string | undefined;
  /** Cluster mode (MIMO_DATABASE_URL), or undefined for the embedded default. */
  cluster: ClusterNode | undefined;
  /** How clients get the token: where it is kept, and the web UI address that carries it. */
  access: AccessInfo;
  close(): Promise<void>;
}

export type AccessInfo =
  | { mode: 'off'; warning: string }
  | { mode: 'env'; oneClickUrl: string }
  /** Cluster mode without MIMO_TOKEN: one token for every node, made by the first, kept in PostgreSQL. */
  | { mode: 'cluster'; oneClickUrl: string }
  | { mode: 'file'; path: string; created: boolean; oneClickUrl: string; fixedMode?: string };

export class StartupError extends Error {}

export async function startMimo(
  env: Record<string, string | undefined>,
  overrides: { log?: Log; llm?: LlmGateway; config?: Partial<MimoConfig>; webDir?: string } = {},
): Promise<MimoApp> {
  const parsed = readConfig(env);
  if (!parsed.ok) throw new StartupError(parsed.errors.join('\n'));
  let config = { ...parsed.config, ...overrides.config };
  const clusterConfig = readClusterConfig(env);
  if (!clusterConfig.ok) throw new StartupError(clusterConfig.errors.join('\n'));
  const clock = createSystemClock();
  const clusterLog =
    overrides.log ?? ((entry: object) => console.log(JSON.stringify({ time: new Date().toISOString(), ...entry })));
  const cluster = clusterConfig.config
    ? await startClusterNode(clusterConfig.config, { clock, log: clusterLog })
    : undefined;
  let stored: Awaited<ReturnType<typeof loadOrCreateAccessToken>> | undefined;
  if (config.token === undefined && config.tokenSource === 'unset') {
    if (cluster) {
      // One token for every node (each has its own data dir): made by the first, kept in PostgreSQL.
      config.token = await cluster.setting('access_token', () => randomBytes(24).toString('base64url'));
    } else {
      try {
        stored = await loadOrCreateAccessToken(config.dataDir);
      } catch (error) {
        throw new StartupError(`the access token: ${error instanceof Error ? error.message : String(error)}`);
      }
      config.token = stored.token;
    }
  }
  if (cluster) config = { ...config, artifactSecret: await cluster.artifactSecret(config.artifactSecret) };
  const profile = readMcpProfile(env.MIMO_MCP_PROFILE);
  if (!profile.ok) throw new StartupError(profile.error);
  const mcpSteps = readMcpConsequentialPolicy(env.MIMO_MCP_CONSEQUENTIAL_STEPS);
  if (!mcpSteps.ok) throw new StartupError(mcpSteps.error);
  const loadedPolicy = await loadUrlPolicyConfig(env.MIMO_URL_POLICY);
  if (!loadedPolicy.ok) throw new StartupError(`MIMO_URL_POLICY: ${loadedPolicy.errors.join('; ')}`);
  const urlPolicy = createUrlPolicy({ config: loadedPolicy.config, resolve: createSystemResolver() });

  // One registry of run-time secrets (text typed into password fields) for every record sink.
  const secrets = createSecretRegistry();
  const redact = <T>(value: T) => redactDeep(value, { secrets, maxDepth: 64 }) as T;
  // A secret split over streamed fragments (the person's chat password, typed by the model) is redacted across them.
  const redactChunk = createChunkRedactor(secrets);
  const recorder = env.MIMO_RECORD_DIR
    ? createSessionRecorder({ dir: resolve(env.MIMO_RECORD_DIR), clock, redact })
    : undefined;
  let llm: LlmGateway;
  try {
    llm =
      overrides.llm ??
      llmFromEnv(
        env,
        recorder
          ? {
              onChunk: (chunk, info) =>
                recorder.record(info.taskId, {
                  kind: 'llm_chunk',
                  attempt: info.attempt,
                  chunk: redactChunk(chunk, info),
                }),
            }
          : {},
      );
  } catch (error) {
    throw new StartupError(error instanceof Error ? error.message : String(error));
  }
  const stately =
    env.MIMO_INSPECT === 'stately'
      ? await startStatelyBridge({
          port: Number(env.MIMO_INSPECT_PORT ?? 8080),
          host: config.host,
          token: config.token,
          gate: gateOptionsOf(config),
          secrets,
        })
      : null;
  const recordToFile = recorder ? recordInspection(recorder, clock) : undefined;
  const inspection = createInspectionHub({
    clock,
    redact,
    forward: (taskId, event) => {
      stately?.forward(event);
      recordToFile?.(taskId, event);
    },
  });

  let mcp: McpRoutes | undefined;
  const server = await createServer({
    config,
    clock,
    secrets,
    ...(overrides.log ? { log: overrides.log } : {}),
    ...(overrides.webDir ? { webDir: overrides.webDir } : {}),
    inspectFor: (taskId) => inspection.observerFor(taskId),
    ...(recorder ? { recorder } : {}),
    ...(cluster ? { taskStore: cluster.taskStore, cluster: cluster.hooks } : {}),
    // The extension asks before every document request of a task tab (navigation-guard.ts).
    checkNavigation: (url) => urlPolicy.check(url),
    routes: (services) =>
      (mcp = createMcpRoutes(services, {
        profile: profile.profile,
        urlPolicy,
        consequentialSteps: mcpSteps.policy,
        inspectFor: (runId: string) => inspection.observerFor(runId),
        ...(cluster ? { runStore: cluster.runStore } : {}),
        ...(recorder ? { recorder } : {}),
      })),
    control: (services) =>
      createAgentOrchestrator(services, {
        llm,
        inspection,
        checkUrl: (url) => urlPolicy.check(url),
        checkFinalUrl: (url) => urlPolicy.checkFinal(url),
        // Scope, steps held for the person's yes, secret placeholders, untrusted page data.
        confirmSteps: 'ask',
        ...(config.contextTokens ? { contextTokens: config.contextTokens } : {}),
      }),
  });
  if (cluster) await cluster.join(server);
  const base = server.url === config.publicBaseUrl || config.port === 0 ? server.url : config.publicBaseUrl;
  const access: AccessInfo =
    config.token === undefined
      ? {
          mode: 'off',
          warning:
            'MIMO_TOKEN=off: no token is required. Any program on this machine (and on the network, if MIMO_HOST is not loopback) can drive your browser.',
        }
      : stored
        ? {
            mode: 'file',
            path: stored.path,
            created: stored.created,
            oneClickUrl: oneClickUrl(base, config.token),
            ...(stored.fixedMode ? { fixedMode: stored.fixedMode } : {}),
          }
        : cluster && config.tokenSource === 'unset'
          ? { mode: 'cluster', oneClickUrl: oneClickUrl(base, config.token) }
          : { mode: 'env', oneClickUrl: oneClickUrl(base, config.token) };
  // In cluster mode a task found running may be running on another live node: failover, not a
  // restart sweep, decides (runtime/cluster/task-ownership.ts).
  const restored = cluster
    ? 0
    : ((await (server.control as { restore?: () => Promise<number> } | undefined)?.restore?.()) ?? 0);
  return {
    server,
    config,
    llm,
    policy: describePolicy(urlPolicy),
    restored,
    recorder,
    statelyUrl: stately?.url,
    cluster,
    access,
    async close() {
      await mcp?.mcp.close();
      await server.close();
      await cluster?.close();
      await recorder?.close();
      stately?.close();
    },
  };
}
