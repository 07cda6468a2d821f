// A small server for the extension's end-to-end tests, built from the real transport
// (createSocketServer + setupMimoNamespace), the real artifact service and the HTTP endpoints
// the extension calls. It records every plugin_message and keeps a minimal task status so
// takeover_report / overlay_command have a visible effect (plugin_ui_state back to the plugin).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { PLUGIN_MESSAGE_EVENT, PROTOCOL_VERSION } from '../../../transport/contracts/index.ts';
import type { ExtensionRegistration, PluginUiState, TaskStatus } from '../../../transport/contracts/index.ts';
import { mimoAuthOf, setupMimoNamespace } from '../../../transport/mimo/mimo-namespace.ts';
import { createSocketServer } from '../../../transport/server/index.ts';
import type { ServerSocket } from '../../../transport/server/index.ts';
import { createArtifactService } from '../../../runtime/artifacts/index.ts';
import type { ArtifactService } from '../../../runtime/artifacts/index.ts';
import { createHarnessHttpHandler } from './harness-http.ts';

export interface RecordedMessage {
  at: number;
  clientId: string;
  message: Record<string, unknown>;
}

export interface Harness {
  url: string;
  port: number;
  token: string;
  artifacts: ArtifactService;
  registrations: ExtensionRegistration[];
  messages: RecordedMessage[];
  /** Connections and disconnections of plugins, in order. */
  connections: Array<{ at: number; clientId: string; event: 'connect' | 'disconnect' }>;
  plugin(clientId: string): ServerSocket | undefined;
  waitForPlugin(timeoutMs?: number): Promise<string>;
  waitForMessage(
    predicate: (message: Record<string, unknown>) => boolean,
    timeoutMs?: number,
    since?: number,
  ): Promise<Record<string, unknown>>;
  taskStatus(taskId: string): TaskStatus | undefined;
  /** Sets a task's status and tells the plugin the matching overlay state. */
  setTask(taskId: string, clientId: string, status: TaskStatus, ui: PluginUiState, tabId?: number): void;
  setRegistrationStatus(status: number | null): void;
  close(): Promise<void>;
}

export interface HarnessOptions {
  token?: string;
  /** Engine.IO ping interval (ms); under 30 s keeps an idle service worker alive. */
  pingInterval?: number;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'mimo-ext-artifacts-'));
  const token = options.token ?? `tok-${ulid()}`;
  const registrations: ExtensionRegistration[] = [];
  const messages: RecordedMessage[] = [];
  const connections: Harness['connections'] = [];
  const plugins = new Map<string, ServerSocket>();
  const tasks = new Map<string, TaskStatus>();
  const waiters = new Set<() => void>();
  let registrationStatus: number | null = null;
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };

  // The artifact service needs the public URL, known once the port is: it is made after listen().
  let handle: ReturnType<typeof createHarnessHttpHandler> = (_req, res) => void res.writeHead(503).end();
  const http = createServer((req, res) => handle(req, res));
  const io = createSocketServer(http, {
    pingInterval: options.pingInterval ?? 10_000,
    pingTimeout: 5_000,
    onListenerError: (error) => console.error('[harness]', error),
  });
  const nsp = setupMimoNamespace(io, { token });

  const setTask = (taskId: string, clientId: string, status: TaskStatus, ui: PluginUiState, tabId?: number) => {
    tasks.set(taskId, status);
    plugins.get(clientId)?.emit(PLUGIN_MESSAGE_EVENT, {
      v: PROTOCOL_VERSION,
      type: 'plugin_ui_state',
      taskId,
      clientId,
      timestamp: Date.now(),
      state: ui,
      ...(tabId === undefined ? {} : { tabId }),
    });
  };

  nsp.on('connection', (socket) => {
    const auth = mimoAuthOf(socket);
    if (auth.clientType !== 'plugin') return;
    const clientId = auth.clientId;
    plugins.set(clientId, socket);
    connections.push({ at: Date.now(), clientId, event: 'connect' });
    notify();
    socket.on('disconnect', () => {
      if (plugins.get(clientId) === socket) plugins.delete(clientId);
      connections.push({ at: Date.now(), clientId, event: 'disconnect' });
      notify();
    });
    socket.on(PLUGIN_MESSAGE_EVENT, (message: Record<string, unknown>, ack?: unknown) => {
      messages.push({ at: Date.now(), clientId, message });
      // No URL policy here (like createServer without checkNavigation): every navigation is allowed.
      if (message.type === 'navigation_check' && typeof ack === 'function') ack({ ok: true, data: { allowed: true } });
      const taskId = message.taskId as string;
      if (message.type === 'takeover_report') setTask(taskId, clientId, 'takeover', 'takeover');
      if (message.type === 'overlay_command') {
        if (message.command === 'resume') setTask(taskId, clientId, 'running', 'hidden');
        else setTask(taskId, clientId, 'completed', 'idle');
      }
      notify();
    });
  });

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  const publicBaseUrl = `http://127.0.0.1:${port}`;
  const artifacts = createArtifactService({
    dir,
    secret: 'harness-secret-0123456789',
    clock: { now: () => Date.now() },
    publicBaseUrl,
  });
  handle = createHarnessHttpHandler({ artifacts, registrations, registrationStatus: () => registrationStatus });

  function waitFor<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = () => {
        const value = check();
        if (value === undefined) return;
        waiters.delete(attempt);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        waiters.delete(attempt);
        reject(new Error(`harness: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      waiters.add(attempt);
      attempt();
    });
  }

  return {
    url: publicBaseUrl,
    port,
    token,
    artifacts,
    registrations,
    messages,
    connections,
    plugin: (clientId) => plugins.get(clientId),
    waitForPlugin: (timeoutMs = 10_000) => waitFor(() => plugins.keys().next().value, timeoutMs, 'a plugin to connect'),
    waitForMessage: (predicate, timeoutMs = 10_000, since = 0) =>
      waitFor(
        () => messages.find((m) => m.at >= since && predicate(m.message))?.message,
        timeoutMs,
        'a plugin message',
      ),
    taskStatus: (taskId) => tasks.get(taskId),
    setTask,
    setRegistrationStatus: (status) => void (registrationStatus = status),
    async close() {
      io.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
