// createMcpRoutes: the `/mcp` route group for createServer's `routes` hook. Streamable HTTP with
// the SDK's web-standard transport, handed `c.req.raw`; a client that initializes gets an MCP
// session (so browser-shell sessions are bound to it; the session keeps only its transport), a
// one-shot POST is answered statelessly with a fresh protocol server. Browser state lives in our
// own sessions (browser-shell session_id, run sessionId). GET answers 405 (no server-initiated
// stream); DELETE with an Mcp-Session-Id ends that session.
// The token middleware (http/token-auth.ts, JSON-RPC refusals) is mounted on the group; Host and
// Origin are checked by the root app's gate first, and a cross origin once more here.
import type { McpConsequentialPolicy } from './browser/consequential-policy.ts';
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono, type MiddlewareHandler } from 'hono';
import { BEARER_CHALLENGE, tokenAuth } from '../http/token-auth.ts';
import type { RuntimeServices } from '../services/runtime-services.ts';
import { describePolicy, type UrlPolicy } from '../url-policy/index.ts';
import { createBrowserSessions, type BrowserSessions } from './browser/browser-sessions.ts';
import { createTabBudget, type TabBudget } from './browser/tab-budget.ts';
import { createMcpCallRecording, type McpCallSink } from './mcp-call-recording.ts';
import { createMcpRunRecording, type McpRunSink } from './mcp-run-recording.ts';
import { createMcpProtocolServer } from './mcp-server.ts';
import { createRunManager, type ActorClock, type RunManager } from './runs/run-manager.ts';
import { createRunStore, type RunStore } from './runs/run-store.ts';
import { createTemplateCatalog } from './templates/template-catalog.ts';
import type { TrustLevel } from './templates/template-types.ts';
import { createBrowserShellTool, type ShellTimers } from './tools/browser-shell-tool.ts';
import { createTemplateTools, MCP_RUNTIME_VERSION } from './tools/template-tools.ts';
import type { McpTool } from './tools/tool-definition.ts';
import type { InspectionEvent } from 'xstate';

export type McpProfile = 'full' | 'minimal';

export interface McpRoutesOptions {
  /** 'full' (default): seed 003's seven tools + browser-shell; 'minimal': browser-shell only. */
  profile?: McpProfile;
  urlPolicy: UrlPolicy;
  /** Default: files under `<dataDir>/mcp-runs/`. */
  runStore?: RunStore;
  maxConcurrentRuns?: number;
  maxRunTimeoutMs?: number;
  tabLimits?: { perSession?: number; total?: number };
  /** Consequential steps (purchase, credentials, files...) of browser-shell and template runs; default refuse (CONFIRMATION_REQUIRED). */
  consequentialSteps?: McpConsequentialPolicy;
  /** The connection's trust level (003 §9). Default: "local" when the server listens on loopback, else "remote". */
  trustLevel?: TrustLevel | ((request: Request) => TrustLevel);
  /** Clock of the run actors (RUN_TIMEOUT); tests pass a SimulatedClock. */
  actorClock?: ActorClock;
  /** Timers of browser-shell (timeout_sec, wait). */
  shellTimers?: ShellTimers;
  inspectFor?: (runId: string) => ((event: InspectionEvent) => void) | undefined;
  /** Sessions unused this long lose their tabs (checked on each request; default 30 min). */
  sessionIdleMs?: number;
  /**
   * MIMO_RECORD_DIR: browser-shell calls go into the session file of the MCP session's task
   * (mcp-call-recording.ts), a template run's calls and its tabs' frames into the run's file (mcp-run-recording.ts).
   */
  recorder?: McpCallSink & McpRunSink;
}

export interface McpHandle {
  profile: McpProfile;
  runs: RunManager;
  sessions: BrowserSessions;
  budget: TabBudget;
  /** Resolves once stored runs are loaded (requests wait for it). */
  ready: Promise<void>;
  tools(): readonly McpTool[];
  /** Cancels live runs, closes every MCP tab, flushes the run store. */
  close(): Promise<void>;
}

export type McpRoutes = Hono & { mcp: McpHandle };

/** An MCP session unused this long is dropped (the client initializes again). */
const MCP_SESSION_IDLE_MS = 2 * 60 * 60 * 1000;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function jsonRpcError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function createMcpRoutes(services: RuntimeServices, options: McpRoutesOptions): McpRoutes {
  const profile = options.profile ?? 'full';
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60 * 1000;
  const { urlPolicy } = options;
  const budget = createTabBudget(options.tabLimits ?? {});
  const recording = options.recorder
    ? createMcpCallRecording({ sink: options.recorder, sessions: () => sessions })
    : undefined;
  const runRecording = options.recorder
    ? createMcpRunRecording({ sink: options.recorder, sessions: () => sessions, runs: () => runs })
    : undefined;
  const sessions: BrowserSessions = createBrowserSessions({
    services,
    budget,
    ...(recording && runRecording
      ? {
          onTaskOpening: (sessionId, role, taskId) => {
            recording.taskOpening(sessionId, role, taskId);
            runRecording.taskOpening(sessionId, role, taskId);
          },
          onTaskClosed: runRecording.taskClosed,
        }
      : {}),
    checkUrl: (url) => urlPolicy.check(url),
    checkFinalUrl: (url) => urlPolicy.checkFinal(url),
    ...(options.consequentialSteps ? { consequentialSteps: options.consequentialSteps } : {}),
  });
  const catalog = createTemplateCatalog();
  const runs = createRunManager({
    services,
    sessions,
    budget,
    store: options.runStore ?? createRunStore({ dataDir: services.config.dataDir }),
    catalog,
    ...(options.maxConcurrentRuns !== undefined ? { maxConcurrentRuns: options.maxConcurrentRuns } : {}),
    ...(options.maxRunTimeoutMs !== undefined ? { maxRunTimeoutMs: options.maxRunTimeoutMs } : {}),
    actorClock: options.actorClock ?? services.clock,
    ...(options.inspectFor ? { inspectFor: options.inspectFor } : {}),
  });
  const ready = runs.init().then(
    (loaded) => services.log({ event: 'mcp_ready', profile, ...loaded, urlPolicy: describePolicy(urlPolicy).summary }),
    (error) => services.log({ event: 'mcp_run_store_failed', error: String(error) }),
  );

  // browser-shell screenshots are readable through get_artifact too (the artifact service enforces their TTL).
  const shellArtifacts = new Set<string>();
  const shell = createBrowserShellTool({
    sessions,
    rememberArtifact: (id) => shellArtifacts.add(id),
    timers: options.shellTimers ?? services.clock,
  });
  const served: McpTool[] =
    profile === 'minimal'
      ? [shell]
      : [
          ...createTemplateTools({
            runs,
            catalog,
            artifacts: services.artifacts,
            artifactAccess: {
              expiresAt: async (id) =>
                shellArtifacts.has(id) ? Number.POSITIVE_INFINITY : (await runs.artifactOwner(id))?.artifact.expiresAt,
            },
            budget,
            now: () => services.clock.now(),
            profile,
            urlPolicy: () => describePolicy(urlPolicy),
          }),
          shell,
        ];
  const tools = recording && runRecording ? runRecording.wrap(recording.wrap(served)) : served;

  const loopbackServer = LOOPBACK_HOSTS.has(services.config.host);
  const trustOf = (request: Request): TrustLevel =>
    typeof options.trustLevel === 'function'
      ? options.trustLevel(request)
      : (options.trustLevel ?? (loopbackServer ? 'local' : 'remote'));

  // DNS-rebinding protection (MCP transport spec): a browser page may only call us from an allowed origin.
  const allowedOrigin: MiddlewareHandler = async function mcpOrigin(c, next) {
    const origin = c.req.header('origin');
    const { corsOrigins } = services.config;
    if (origin && origin !== new URL(c.req.url).origin && !corsOrigins.includes(origin) && !corsOrigins.includes('*')) {
      return jsonRpcError(403, `origin ${origin} is not allowed`);
    }
    return next();
  };
  const token = tokenAuth({
    token: services.config.token,
    refuse: (_c, reason) =>
      jsonRpcError(
        401,
        reason === 'invalid' ? 'invalid token' : 'missing token: send "Authorization: Bearer <token>"',
        BEARER_CHALLENGE,
      ),
  });

  // MCP sessions: a client that sends `initialize` gets an Mcp-Session-Id and keeps
  // its transport here, so its tool calls carry that id and browser-shell sessions can be bound
  // to it. A POST without `initialize` or a session id is still answered statelessly (one-shot
  // clients, curl). Bounded: idle sessions are dropped, and the oldest beyond MAX_MCP_SESSIONS.
  const live = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; lastUsed: number }>();
  const MAX_MCP_SESSIONS = 256;
  // Connection-level state, like a socket's heartbeat: wall-clock time, not the runtime's clock
  // (tests move that one by days to expire artifacts, and a client's MCP session must survive it).
  const wallClock = () => Date.now();
  function sweepMcpSessions(): void {
    const now = wallClock();
    for (const [id, entry] of live) {
      if (now - entry.lastUsed > MCP_SESSION_IDLE_MS || live.size > MAX_MCP_SESSIONS) {
        live.delete(id);
        void entry.transport.close().catch(() => undefined);
      }
    }
  }

  const isInitialize = (body: unknown) =>
    (Array.isArray(body) ? body : [body]).some(
      (m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize',
    );

  async function handle(request: Request): Promise<Response> {
    void sessions
      .sweepIdle(sessionIdleMs, (id) => runs.usesSession(id))
      .then((closed) => {
        if (closed.length > 0) services.log({ event: 'mcp_sessions_idle_closed', sessions: closed });
      });
    sweepMcpSessions();
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const entry = live.get(sessionId);
      if (!entry)
        return jsonRpcError(404, 'unknown MCP session (it expired or the server restarted): send initialize again');
      if (request.method !== 'POST' && request.method !== 'DELETE')
        return jsonRpcError(405, 'use POST (no GET stream); DELETE ends the session', { Allow: 'POST, DELETE' });
      entry.lastUsed = wallClock();
      if (request.method === 'DELETE') live.delete(sessionId);
      return entry.transport.handleRequest(request);
    }
    if (request.method !== 'POST')
      return jsonRpcError(405, 'use POST (no GET stream; DELETE with an Mcp-Session-Id ends a session)', {
        Allow: 'POST',
      });
    await ready;
    const body: unknown = await request
      .clone()
      .json()
      .catch(() => undefined);
    const server = createMcpProtocolServer(tools, {
      trustLevel: trustOf(request),
      version: MCP_RUNTIME_VERSION,
      instructions:
        profile === 'minimal'
          ? 'One tool: browser-shell.'
          : "Template runs (seed 003) and browser-shell (seed 004) on the user's own browser.",
    });
    const transport: WebStandardStreamableHTTPServerTransport = isInitialize(body)
      ? new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            live.set(id, { transport, lastUsed: wallClock() });
            sweepMcpSessions();
          },
          onsessionclosed: (id) => {
            live.delete(id);
          },
        })
      : new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    return transport.handleRequest(request);
  }

  const app = new Hono();
  // `/mcp/*` covers `/mcp` itself too.
  app.use('/mcp/*', token, allowedOrigin);
  /** GET /mcp/url-policy: which URL policy is in force (for the web UI), behind the same token. */
  app.get('/mcp/url-policy', (c) =>
    c.json({ profile, urlPolicy: describePolicy(urlPolicy) }, 200, { 'Cache-Control': 'no-store' }),
  );
  app.all('/mcp/url-policy', () => jsonRpcError(405, 'use GET', { Allow: 'GET' }));
  app.all('/mcp', (c) => handle(c.req.raw));
  app.all('/mcp/', (c) => handle(c.req.raw));
  const route = app as McpRoutes;

  route.mcp = {
    profile,
    runs,
    sessions,
    budget,
    ready,
    tools: () => tools,
    async close() {
      for (const entry of live.values()) await entry.transport.close().catch(() => undefined);
      live.clear();
      await runs.close();
      await sessions.closeAll();
    },
  };
  return route;
}
