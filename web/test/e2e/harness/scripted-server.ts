// A small scripted server for the web UI's end-to-end tests, built from our own transport
// (transport/server + transport/mimo) and a node:http handler for the HTTP endpoints the UI
// reads (seed 001 §2) plus the built UI itself. It answers frontend_message like the runtime's
// gateway and plays a scripted agent turn for every user_message.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { errorEnvelope, okEnvelope } from '../../../../transport/contracts/envelope.ts';
import type { FrontendEvent, InspectionRecord } from '../../../../transport/contracts/frontend-event.ts';
import { FrontendMessageSchema, type FrontendMessage } from '../../../../transport/contracts/frontend-message.ts';
import { rooms } from '../../../../transport/contracts/socket-auth.ts';
import type { TaskStatus } from '../../../../transport/contracts/task-status.ts';
import { validate } from '../../../../transport/contracts/validate.ts';
import { setupMimoNamespace } from '../../../../transport/mimo/mimo-namespace.ts';
import { createSocketServer, type ServerSocket } from '../../../../transport/server/index.ts';
import { runScriptedTurn, type PayloadInput, type TurnIo } from './agent-script.ts';
import { nextTaskId, type HarnessWorld } from './world.ts';

export interface ScriptedServerOptions {
  world: HarnessWorld;
  /** The built UI (index.html + assets). */
  distDir: string;
  port?: number;
  token?: string;
  /** Pause between scripted steps (ms). */
  stepMs?: number;
}

export interface ScriptedServer {
  url: string;
  port: number;
  /** Every valid frontend_message received, in order. */
  received: FrontendMessage[];
  /** Every frontend_event emitted, in order. */
  emitted: FrontendEvent[];
  /** Requests seen on /api (method + path + whether the bearer token was right). */
  requests: { path: string; authorized: boolean }[];
  /** The plugin reports the user acting on the task tab. */
  takeover(taskId: string, reason?: string): void;
  /** Resolves when every scripted turn started so far has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const { world } = options;
  const received: FrontendMessage[] = [];
  const emitted: FrontendEvent[] = [];
  const requests: { path: string; authorized: boolean }[] = [];
  const turns = new Set<Promise<void>>();
  const inspecting = new Map<string, Set<ServerSocket>>();
  let eventCounter = 0;
  let seq = 0;
  let baseUrl = '';

  const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
  };

  async function api(req: IncomingMessage, res: ServerResponse, path: string) {
    const authorized = !options.token || req.headers.authorization === `Bearer ${options.token}`;
    requests.push({ path, authorized });
    if (path.startsWith('/api/artifacts/')) {
      const artifact = world.artifacts.get(decodeURIComponent(path.slice('/api/artifacts/'.length)));
      return artifact
        ? send(res, 200, artifact.bytes, artifact.contentType)
        : send(res, 404, errorEnvelope('NOT_FOUND', 'no such artifact'));
    }
    if (!authorized) return send(res, 401, errorEnvelope('UNAUTHORIZED', 'missing or wrong bearer token'));
    if (path === '/api/task/id') return send(res, 200, okEnvelope({ taskId: nextTaskId(world) }));
    if (path === '/api/task/list') {
      // As the runtime: `?limit=&cursor=` answers one page (newest activity first), else every task.
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const all = [...world.tasks.values()].map((t) => t.summary);
      if (!query.has('limit')) return send(res, 200, okEnvelope(all));
      const limit = Number(query.get('limit'));
      const from = Number(query.get('cursor') ?? 0);
      const sorted = all.sort((a, b) => b.updatedAt - a.updatedAt);
      return send(
        res,
        200,
        okEnvelope({
          tasks: sorted.slice(from, from + limit),
          nextCursor: from + limit < sorted.length ? String(from + limit) : null,
        }),
      );
    }
    if (path === '/api/snapshot') {
      const ageMs = Math.max(0, Date.now() - world.snapshot.lastUpdated);
      return send(res, 200, okEnvelope({ ...world.snapshot, connected: true, ageMs, stale: ageMs > 30_000 }));
    }
    if (path === '/api/extension/extension-list') return send(res, 200, okEnvelope(world.extensions));
    const detail = /^\/api\/task\/([^/]+)$/.exec(path);
    if (detail) {
      const task = world.tasks.get(decodeURIComponent(detail[1]!));
      return task
        ? send(res, 200, okEnvelope({ task: task.summary, messages: task.messages }))
        : send(res, 404, errorEnvelope('NOT_FOUND', 'no such task'));
    }
    return send(res, 404, errorEnvelope('NOT_FOUND', `no route ${path}`));
  }

  async function staticFile(res: ServerResponse, path: string) {
    const file = normalize(join(options.distDir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(normalize(options.distDir))) return send(res, 403, 'forbidden', 'text/plain');
    try {
      send(res, 200, await readFile(file), contentTypes[extname(file)] ?? 'application/octet-stream');
    } catch {
      send(res, 200, await readFile(join(options.distDir, 'index.html')), contentTypes['.html']);
    }
  }

  const http = createHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const work = path.startsWith('/api/') ? api(req, res, path) : staticFile(res, path);
    work.catch((error) => send(res, 500, errorEnvelope('INTERNAL', String(error))));
  });
  const io = createSocketServer(http, { pingInterval: 2_000, pingTimeout: 2_000 });
  const nsp = setupMimoNamespace(io, { token: options.token });

  function envelope(taskId: string | undefined, event: PayloadInput): FrontendEvent {
    const timestamp = Date.now();
    eventCounter += 1;
    const env = {
      type: 'event',
      id: `env-${process.pid}-${timestamp}-${eventCounter}`,
      ...(taskId ? { taskId } : {}),
      timestamp,
      event: { ...event, id: `evt-${timestamp}-${eventCounter}`, timestamp },
    } as FrontendEvent;
    emitted.push(env);
    return env;
  }
  const toTask = (taskId: string, event: PayloadInput) =>
    nsp.to(rooms.task(taskId)).emit('frontend_event', envelope(taskId, event));
  /** Last known state of every inspected actor, replayed to a new subscriber (as the runtime should). */
  const actorStates = new Map<string, Map<string, InspectionRecord>>();
  const inspect = (taskId: string, record: InspectionRecord) => {
    if (record.type !== '@xstate.event') {
      const states = actorStates.get(taskId) ?? new Map<string, InspectionRecord>();
      const known = states.get(record.actorId);
      states.set(record.actorId, {
        ...known,
        ...record,
        type: '@xstate.snapshot',
        machineId: record.machineId ?? known?.machineId,
      });
      actorStates.set(taskId, states);
    }
    const env = envelope(taskId, { type: 'inspection', record });
    for (const socket of inspecting.get(taskId) ?? []) socket.emit('frontend_event', env);
  };
  const snapshotChanged = () => {
    seq += 1;
    nsp
      .to(rooms.frontend)
      .emit('frontend_event', envelope(undefined, { type: 'snapshotSync', mode: 'full', seq, state: world.snapshot }));
  };
  function setStatus(taskId: string, status: TaskStatus, reason?: string) {
    const task = world.tasks.get(taskId);
    if (!task) return;
    const previous = task.summary.status;
    task.summary = { ...task.summary, status, updatedAt: Date.now() };
    toTask(taskId, { type: 'taskStatus', status, previous, ...(reason ? { reason } : {}) });
    const statusValue =
      status === 'takeover'
        ? { [previous === 'running' ? 'running' : 'ongoing']: 'takeover' }
        : status === 'running'
          ? { running: 'active' }
          : status === 'ongoing'
            ? { ongoing: 'idle' }
            : status;
    // The task machine is parallel: its status, its action slot (idle between steps) and the plugin-UI mirror.
    const pluginUi =
      status === 'takeover' ? 'takeover' : status === 'completed' || status === 'error' ? 'idle' : 'hidden';
    inspect(taskId, {
      type: '@xstate.snapshot',
      actorId: `task:${taskId}`,
      machineId: 'task',
      snapshot: { value: { status: statusValue, action: 'idle', pluginUi }, status: 'active' },
    });
  }
  const turnIo: TurnIo = {
    world,
    get baseUrl() {
      return baseUrl;
    },
    stepMs: options.stepMs ?? 90,
    toTask,
    inspect,
    snapshotChanged,
    setStatus,
    now: () => Date.now(),
  };

  const handlers: {
    [T in FrontendMessage['type']]: (socket: ServerSocket, m: Extract<FrontendMessage, { type: T }>) => unknown;
  } = {
    user_message(socket, m) {
      socket.join(rooms.task(m.taskId));
      let task = world.tasks.get(m.taskId);
      if (!task) {
        task = {
          summary: {
            taskId: m.taskId,
            title: m.content.slice(0, 60),
            status: 'created',
            createdAt: m.timestamp,
            updatedAt: m.timestamp,
          },
          messages: [],
        };
        world.tasks.set(m.taskId, task);
      }
      if (task.messages.some((x) => x.id === m.id)) return { taskId: m.taskId, duplicate: true };
      task.messages.push({ id: m.id, role: 'user', content: m.content, timestamp: Date.now() });
      const turn = runScriptedTurn(turnIo, m.taskId, m.id, task.messages.filter((x) => x.role === 'user').length).catch(
        (error) => console.error('[scripted turn]', error),
      );
      turns.add(turn);
      void turn.finally(() => turns.delete(turn));
      return { taskId: m.taskId };
    },
    resume_task(_, m) {
      const task = world.tasks.get(m.taskId);
      if (task?.summary.status !== 'takeover')
        return { error: { code: 'CONFLICT', message: 'the task is not in takeover' } };
      setStatus(m.taskId, 'ongoing', 'resumed from the web UI');
      return {};
    },
    stop_task(_, m) {
      setStatus(m.taskId, 'completed', m.reason ?? 'stopped from the web UI');
      return {};
    },
    takeover_task(_, m) {
      setStatus(m.taskId, 'takeover', m.reason ?? 'taken over from the web UI');
      return {};
    },
    subscribe_task(socket, m) {
      socket.join(rooms.task(m.taskId));
      return {};
    },
    unsubscribe_task(socket, m) {
      socket.leave(rooms.task(m.taskId));
      return {};
    },
    subscribe_inspection(socket, m) {
      const set = inspecting.get(m.taskId) ?? new Set();
      if (!set.has(socket)) {
        for (const record of actorStates.get(m.taskId)?.values() ?? [])
          socket.emit('frontend_event', envelope(m.taskId, { type: 'inspection', record }));
      }
      set.add(socket);
      inspecting.set(m.taskId, set);
      return {};
    },
    unsubscribe_inspection(socket, m) {
      inspecting.get(m.taskId)?.delete(socket);
      return {};
    },
    select_extension(_, m) {
      const task = world.tasks.get(m.taskId);
      if (task) task.summary = { ...task.summary, selectedClientId: m.clientId };
      return {};
    },
    // The scripted world has no browser to stream: live view answers that it is not available.
    subscribe_live: () => ({ error: { code: 'UNAVAILABLE', message: 'no live view in the scripted server' } }),
    unsubscribe_live: () => ({}),
    // The person guard (issue 23) is the real runtime's; this scripted world holds no steps.
    confirmation_answer: () => ({ error: { code: 'NOT_FOUND', message: 'no step waits for confirmation' } }),
    set_task_scope: () => ({}),
    set_task_secret: () => ({}),
    show_task_tab: () => ({}),
  };

  nsp.on('connection', (socket) => {
    socket.on('frontend_message', (input: unknown, ack?: (r: unknown) => void) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      const checked = validate(FrontendMessageSchema, input);
      if (!checked.ok) return reply({ ok: false, error: checked.error });
      received.push(checked.value);
      const out = (
        handlers[checked.value.type] as (
          s: ServerSocket,
          m: FrontendMessage,
        ) => { error?: unknown } & Record<string, unknown>
      )(socket, checked.value);
      reply(out.error ? { ok: false, error: out.error } : { ok: true, data: out });
    });
    socket.on('disconnect', () => {
      for (const set of inspecting.values()) set.delete(socket);
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    port,
    received,
    emitted,
    requests,
    takeover: (taskId, reason = 'you clicked in the task tab') => setStatus(taskId, 'takeover', reason),
    async idle() {
      while (turns.size > 0) await Promise.all([...turns]);
    },
    async close() {
      io.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
