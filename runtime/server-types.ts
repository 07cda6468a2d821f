// What createServer (server.ts) takes and what it gives: the server's options and the running
// server (the runtime services plus its HTTP and Socket.IO ends).
import type { Server as HttpServer } from 'node:http';
import type { Hono } from 'hono';
import type { InspectionEvent } from 'xstate';
import type { SocketServer, SocketServerOptions } from '../transport/server/index.ts';
import type { Clock } from './clock/index.ts';
import type { MimoConfig } from './config.ts';
import type { HttpEnv } from './http/index.ts';
import type { SessionRecorder } from './recorder/session-recorder.ts';
import type { SecretRegistry } from './redaction/redact.ts';
import type { Log, RuntimeServices, ServerClusterHooks } from './services/runtime-services.ts';
import type { TaskControl } from './services/task-control.ts';
import type { NavigationBlockedReport, NavigationPolicyCheck } from './socket/navigation-check.ts';
import type { LiveViewRelay } from './socket/live-view-relay.ts';
import type { TaskStore } from './store/index.ts';

export interface CreateServerOptions {
  config: MimoConfig;
  /** The one clock of every actor and timer of the runtime (XState's clock + now()). */
  clock?: Clock;
  log?: Log;
  taskStore?: TaskStore;
  /** Engine.IO / Socket.IO settings (heartbeat, maxPayload, connectTimeout); the gate and CORS come from config. */
  transport?: Omit<SocketServerOptions, 'corsOrigins' | 'allowRequest' | 'connectGuard'>;
  /** Default T_ack for every action (ms). */
  ackTimeoutMs?: number;
  /** XState inspection observer for the tool tasks' actors (MCP sessions, `tasks.run`). */
  inspectFor?: (taskId: string) => (event: InspectionEvent) => void;
  /** The built web UI served at `/` (default: web/dist). */
  webDir?: string;
  /** MIMO_RECORD_DIR: records every task's frames (see recorder/session-recorder.ts; it redacts with the same secrets). */
  recorder?: SessionRecorder;
  /** The registry of run-time secrets (default: a new one); startMimo shares it with inspection and the Stately bridge. */
  secrets?: SecretRegistry;
  /** More Hono route groups (MCP at /mcp) built from the services, mounted after /api, before the web UI. */
  routes?: (services: RuntimeServices) => Hono;
  /** Builds the agent side once the services exist (the orchestrator). */
  control?: (services: RuntimeServices) => TaskControl;
  /** The URL policy the extension enforces on every navigation of a task tab (navigation_check). */
  checkNavigation?: NavigationPolicyCheck;
  /** Hears every navigation the browser refused under that policy (after the task's event). */
  onNavigationBlocked?: (report: NavigationBlockedReport) => void;
  /** Cluster mode (runtime/cluster/): wraps the plugin channel, the services and the control so they span nodes. */
  cluster?: ServerClusterHooks;
}

export interface MimoServer extends RuntimeServices {
  /** Task folders the store could not read at start (also logged as `task_file_damaged`). */
  damagedTasks: ReadonlyArray<{ taskId: string; reason: string }>;
  http: HttpServer;
  io: SocketServer;
  /** The whole HTTP surface (gate, /api, /mcp, web UI): `app.request()` reaches all of it without a port. */
  app: Hono<HttpEnv>;
  control: TaskControl | undefined;
  /** Live view frames: plugin -> the web sockets watching a task. */
  live: LiveViewRelay;
  /** The base URL it listens on (createServer resolves once listening). */
  readonly url: string;
  close(): Promise<void>;
}
