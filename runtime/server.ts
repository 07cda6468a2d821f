// createServer: composes the runtime (seed 000 §1) from factories: the Hono HTTP API, our
// Socket.IO-compatible transport on the same http server, the task store, extension registry,
// snapshot store, artifact service and action scheduler. Nothing here is a module singleton;
// tests build as many servers as they like, on memory or temp-dir stores.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { ulid } from 'ulid';
import type { Hono } from 'hono';
import { rooms } from '../transport/contracts/index.ts';
import { setupMimoNamespace, tokenGuard } from '../transport/mimo/mimo-namespace.ts';
import { createSocketServer, type Namespace } from '../transport/server/index.ts';
import { createArtifactService, type ArtifactService, type ArtifactStore } from './artifacts/index.ts';
import { createSystemClock, every, type Clock } from './clock/index.ts';
import type { MimoConfig } from './config.ts';
import { createHttpApp, type HttpEnv } from './http/index.ts';
import { engineAllowRequest } from './http/node-gate.ts';
import { createRequestGate, type RequestGateOptions } from './http/request-gate.ts';
import { createRootApp } from './http/root-app.ts';
import { unparsableRequest } from './http/unparsable-request.ts';
import { createExtensionRegistry, type ExtensionRegistry } from './registry/index.ts';
import { createTaskTrees } from './agent/task-trees.ts';
import { createActionScheduler, type ActionScheduler, type PluginChannel } from './scheduler/action-scheduler.ts';
import { createSnapshotStore, type SnapshotStore } from './snapshot/index.ts';
import { createFrontendEventSink, type FrontendEventSink } from './socket/frontend-events.ts';
import { attachFrontendSocket } from './socket/frontend-gateway.ts';
import { createLiveViewRelay } from './socket/live-view-relay.ts';
import { attachPluginSocket } from './socket/plugin-gateway.ts';
import type { NavigationBlockedReport } from './socket/navigation-check.ts';
import type { Log, RuntimeServices, ServerClusterHooks } from './services/runtime-services.ts';
import { createTaskStore } from './store/index.ts';
import { createWebUi } from './web-ui.ts';
import { createSecretRegistry, redactingLog } from './redaction/redact.ts';
import { redactingTaskStore } from './redaction/redacting-task-store.ts';
import { noteChatSecrets } from './redaction/chat-secrets.ts';
import { redactingEventSink } from './redaction/redacting-event-sink.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type { Clock } from './clock/index.ts';

export type { Log, RuntimeServices, ServerClusterHooks } from './services/runtime-services.ts';

import type { CreateServerOptions, MimoServer } from './server-types.ts';
export type { CreateServerOptions, MimoServer } from './server-types.ts';

/** The request gate's settings from the config (runtime/http/request-gate.ts). */
export function gateOptionsOf(config: MimoConfig): RequestGateOptions {
  return {
    allowedHosts: config.allowedHosts ?? [],
    publicBaseUrl: config.publicBaseUrl,
    bindHost: config.host,
    corsOrigins: config.corsOrigins,
    extensionIds: config.extensionIds ?? [],
  };
}

const consoleLog: Log = (entry) => console.log(JSON.stringify({ time: new Date().toISOString(), ...entry }));

export async function createServer(options: CreateServerOptions): Promise<MimoServer> {
  const { config } = options;
  const clock = options.clock ?? createSystemClock();
  const secrets = options.secrets ?? createSecretRegistry();
  const log = redactingLog(options.log ?? consoleLog, secrets);

  // What the runtime persists goes through the secret registry (text typed into password fields).
  const taskStore = redactingTaskStore(
    options.taskStore ?? createTaskStore({ dataDir: config.dataDir, clock }),
    secrets,
  );
  // A damaged task file is reported (log + GET /api/task/list?damaged=1), never silently dropped.
  const { skipped: damagedTasks } = await taskStore.init();
  for (const damaged of damagedTasks)
    log({ event: 'task_file_damaged', taskId: damaged.taskId, reason: damaged.reason });
  const registry = createExtensionRegistry({ clock });

  // The http server first (the root Hono app), then the transport attaches to it. One gate (Host,
  // Origin) in front of every way in: the root app's first middleware for HTTP, Engine.IO through
  // allowRequest; the token then on every Socket.IO namespace (connectGuard), /api and /mcp.
  let app!: Hono<HttpEnv>;
  const gate = createRequestGate(gateOptionsOf(config));
  const http = createHttpServer(
    getRequestListener((request, env) => app.fetch(request, env), { errorHandler: unparsableRequest(log) }),
  );
  const io = createSocketServer(http, {
    ...options.transport,
    corsOrigins: [...gate.crossOrigins],
    allowRequest: engineAllowRequest(gate, log),
    connectGuard: tokenGuard(config.token),
    onListenerError: (error, context) =>
      log({ ...context, event: 'socket_listener_failed', listener: context.event, error: String(error) }),
  });
  const nsp = setupMimoNamespace(io, {
    token: config.token,
    isPluginOrigin: (origin) => origin === undefined || gate.isExtensionOrigin(origin),
  });

  // Listen before building the rest so that port 0 (tests) is known for the artifact URLs;
  // requests reach `app` only after this function has returned to the event loop.
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, config.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const publicBaseUrl = config.port === 0 ? url : config.publicBaseUrl;
  const artifacts = createArtifactService({
    dir: config.artifactDir,
    ...(options.cluster?.artifactStore ? { store: options.cluster.artifactStore } : {}),
    secret: config.artifactSecret ?? randomBytes(32),
    clock,
    publicBaseUrl,
    scheduler: {
      setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
      clearTimeout: (handle) => clock.clearTimeout(handle),
      setInterval: (fn, ms) => every(clock, ms, fn),
      clearInterval: (stop) => (stop as () => void)(),
    },
  });
  const recorder = options.recorder;
  // Secrets: every event is redacted before it leaves, the chatDelta stream included.
  const events = redactingEventSink(
    createFrontendEventSink({
      nsp,
      clock,
      ...(recorder
        ? {
            onEmit: (envelope) =>
              envelope.taskId &&
              recorder.record(envelope.taskId, {
                kind: 'frame',
                direction: 'out',
                channel: 'frontend_event',
                payload: envelope,
              }),
          }
        : {}),
    }),
    secrets,
  );
  const socketsOf = (clientId: string) => nsp.to(rooms.client(clientId)).sockets().length;

  const snapshots = createSnapshotStore({
    clock,
    // In cluster mode every node applies every plugin's snapshot (runtime/cluster/), so each
    // tells its own frontends only.
    onChange: ({ seq, state }) =>
      options.cluster
        ? nsp
            .to(rooms.frontend)
            .local.emit('frontend_event', events.envelope({ type: 'snapshotSync', mode: 'full', seq, state }))
        : events.toAllFrontends({ type: 'snapshotSync', mode: 'full', seq, state }),
    ...(config.snapshotDebug ? { debugLog: (line: string) => log({ event: 'snapshot', line }) } : {}),
  });

  const localChannel: PluginChannel = {
    isConnected: (clientId) => socketsOf(clientId) > 0,
    emitWithAck(clientId, frame, onAck) {
      const sockets = nsp.to(rooms.client(clientId)).sockets();
      const socket = sockets[sockets.length - 1];
      if (!socket) return false;
      const taskId = (frame as { taskId?: string }).taskId;
      if (recorder && taskId) {
        recorder.record(taskId, { kind: 'frame', direction: 'out', channel: 'plugin_message', payload: frame });
        const inner = onAck;
        onAck = (response) => {
          recorder.record(taskId, {
            kind: 'frame',
            direction: 'in',
            channel: 'plugin_ack',
            payload: { actionId: (frame as { id?: string }).id, response },
          });
          inner(response);
        };
      }
      socket.emit('plugin_message', frame, onAck);
      return true;
    },
  };
  const channel = options.cluster ? options.cluster.channel(localChannel, { nsp, registry }) : localChannel;
  const scheduler = createActionScheduler({
    channel,
    clock,
    ...(options.ackTimeoutMs !== undefined ? { ackTimeoutMs: options.ackTimeoutMs } : {}),
    onSettled: (request, output) => {
      if (output.status === 'canceled') return;
      if (output.timedOut === 'exec') {
        // Seed 001 §4.1: two exec timeouts in a row -> unhealthy (until it reconnects), and what
        // it still had in flight is failed now; queued actions are refused below.
        if (registry.recordExecTimeout(request.clientId).becameUnhealthy) {
          log({ event: 'plugin_unhealthy', clientId: request.clientId });
          scheduler.pluginGone(
            request.clientId,
            `the browser extension ${request.clientId} was marked unhealthy after two action timeouts in a row; reconnect it`,
          );
        }
      } else if (output.answered) registry.recordActionSettled(request.clientId);
    },
    refuse: (clientId, taskId) => {
      const block = registry.turnBlockOf(taskId);
      if (block && block.clientId === clientId) return block.error;
      return registry.get(clientId) && !registry.isHealthy(clientId)
        ? {
            code: 'PLUGIN_OFFLINE',
            message: `the browser extension ${clientId} stopped answering (two action timeouts in a row): reconnect it (reload the extension) or select another one`,
            retryable: true,
            details: { clientId, unhealthy: true },
          }
        : null;
    },
    onIgnoredResult: (actionId, disposition) => log({ event: 'action_result_ignored', actionId, disposition }),
  });

  const tasks = createTaskTrees({
    scheduler,
    clock,
    ...(options.inspectFor ? { inspectFor: options.inspectFor } : {}),
  });
  const baseServices: RuntimeServices = {
    config,
    clock,
    log,
    taskStore,
    registry,
    snapshots,
    artifacts,
    scheduler,
    tasks,
    events,
    nsp,
    secrets,
  };
  const services = options.cluster ? options.cluster.services(baseServices) : baseServices;
  const control = options.cluster
    ? options.cluster.control(options.control?.(services), services)
    : options.control?.(services);
  const routes = options.routes?.(services);
  const live = createLiveViewRelay({
    target: (taskId) => control?.liveTarget?.(taskId) ?? null,
    sendToPlugin: (clientId, command) => nsp.to(rooms.client(clientId)).emit('plugin_message', command),
    clock,
    log,
  });

  const api = createHttpApp({
    taskStore,
    registry: services.registry,
    snapshots: services.snapshots,
    artifacts,
    config: { token: config.token, corsOrigins: config.corsOrigins, publicBaseUrl },
    log,
    newTaskId: () => ulid(),
    damagedTasks: () => damagedTasks,
    isConnected: (clientId: string) => channel.isConnected(clientId),
  });
  const webUi = createWebUi(options.webDir ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'web', 'dist'));
  app = createRootApp({ gate, log, api, webUi, ...(routes ? { routes } : {}) });

  const navigation = {
    ...(options.checkNavigation ? { check: options.checkNavigation } : {}),
    onBlocked: (report: NavigationBlockedReport) => {
      log({
        event: 'navigation_blocked',
        taskId: report.taskId,
        tabId: report.tabId,
        frame: report.frame,
        stage: report.stage,
        reason: report.error.details?.reason,
      });
      events.toTask(report.taskId, {
        type: 'structuredOutput',
        status: 'error',
        error: report.error,
        message: `The browser did not load ${report.url.slice(0, 200)}: ${report.error.message}`,
      });
      control?.navigationBlocked?.(report);
      options.onNavigationBlocked?.(report);
    },
  };
  /** Set by close(): the sockets it closes are not plugins going offline. */
  let closing = false;
  nsp.on('connection', (socket) => {
    attachPluginSocket(socket, {
      navigation,
      registry: services.registry,
      snapshots: services.snapshots,
      scheduler: services.scheduler,
      control,
      socketsOf,
      live,
      log,
      closing: () => closing,
      ...(recorder
        ? {
            onMessage: (taskId: string, payload: unknown) =>
              recorder.record(taskId, { kind: 'frame', direction: 'in', channel: 'plugin_message', payload }),
          }
        : {}),
    });
    attachFrontendSocket(socket, {
      control,
      noteUserText: (text) => void noteChatSecrets(secrets, text),
      ...(recorder
        ? {
            onMessage: (taskId: string, payload: unknown) =>
              recorder.record(taskId, { kind: 'frame', direction: 'in', channel: 'frontend_message', payload }),
          }
        : {}),
      live,
      bindExtension: (taskId, clientId) => {
        if (!services.registry.get(clientId))
          return {
            ok: false,
            error: {
              code: 'NOT_FOUND',
              message: `no browser extension with clientId ${clientId} has connected to this server`,
            },
          };
        services.registry.select(taskId, clientId);
        return { ok: true };
      },
      log,
    });
  });

  const stopSweeper = artifacts.startSweeper({
    onError: (error) => log({ event: 'artifact_sweep_failed', error: String(error) }),
  });

  return {
    ...services,
    damagedTasks,
    http,
    io,
    app,
    control,
    live,
    url,
    async close() {
      closing = true;
      stopSweeper();
      io.close();
      http.closeAllConnections?.();
      await new Promise<void>((resolve) => (http.listening ? http.close(() => resolve()) : resolve()));
      await taskStore.close();
    },
  };
}
