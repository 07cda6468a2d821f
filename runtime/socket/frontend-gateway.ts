// `frontend_message` from web clients (seed 001 §3.3 plus the product's control messages):
// validated against the shared contracts, dispatched by a handler map, answered through the
// Socket.IO ack with `{ ok, data? }` or `{ ok: false, error: { code, message, fieldErrors? } }`.
import {
  FRONTEND_MESSAGE_EVENT,
  FrontendMessageSchema,
  rooms,
  validate,
  type FrontendMessage,
} from '../../transport/contracts/index.ts';
import { mimoAuthOf } from '../../transport/mimo/mimo-namespace.ts';
import type { ServerSocket } from '../../transport/server/index.ts';
import type { LiveViewRelay } from './live-view-relay.ts';
import type { ControlResult, TaskControl } from '../services/task-control.ts';

export interface FrontendGatewayDeps {
  /** The agent side, built before the gateways (undefined: a server without one). */
  control: TaskControl | undefined;
  /** select_extension when no agent runs on this server. */
  bindExtension(taskId: string, clientId: string): ControlResult;
  /** The live view relay (subscribe_live / unsubscribe_live); absent: live view unavailable. */
  live?: LiveViewRelay;
  log(entry: Record<string, unknown>): void;
  /** Every valid message (the recorder). */
  onMessage?(taskId: string, message: unknown): void;
  /** Called with a user message's text before anything stores, records or relays it (chat secrets). */
  noteUserText?(text: string): void;
}

type Handler<T extends FrontendMessage['type']> = (
  message: Extract<FrontendMessage, { type: T }>,
) => ControlResult | Promise<ControlResult>;

const noLive: ControlResult = {
  ok: false,
  error: { code: 'UNAVAILABLE', message: 'live view is not available on this server' },
};
const noAgent: ControlResult = {
  ok: false,
  error: { code: 'UNAVAILABLE', message: 'the agent is not running on this server' },
};

export function attachFrontendSocket(socket: ServerSocket, deps: FrontendGatewayDeps): void {
  if (mimoAuthOf(socket).clientType !== 'frontend') return;
  const inspections = new Map<string, () => void>();

  const handlers: { [T in FrontendMessage['type']]: Handler<T> } = {
    user_message: (m) => {
      socket.join(rooms.task(m.taskId));
      return deps.control?.userMessage(m, m.traceId ? { traceId: m.traceId } : {}) ?? noAgent;
    },
    resume_task: (m) => deps.control?.resume(m.taskId, 'web') ?? noAgent,
    stop_task: (m) => deps.control?.stop(m.taskId, 'web', m.reason) ?? noAgent,
    takeover_task: (m) => deps.control?.takeover(m.taskId, 'web', m.reason ?? 'taken over from the web UI') ?? noAgent,
    subscribe_task: (m) => {
      socket.join(rooms.task(m.taskId));
      for (const envelope of deps.control?.stepsInFlight?.(m.taskId) ?? []) socket.emit('frontend_event', envelope);
      return { ok: true };
    },
    unsubscribe_task: (m) => {
      socket.leave(rooms.task(m.taskId));
      return { ok: true };
    },
    subscribe_inspection: (m) => {
      const inspect = deps.control?.inspect;
      if (!inspect) return noAgent;
      if (!inspections.has(m.taskId)) {
        inspections.set(
          m.taskId,
          inspect(m.taskId, (envelope) => socket.emit('frontend_event', envelope)),
        );
      }
      return { ok: true };
    },
    unsubscribe_inspection: (m) => {
      inspections.get(m.taskId)?.();
      inspections.delete(m.taskId);
      return { ok: true };
    },
    select_extension: (m) =>
      deps.control?.selectExtension?.(m.taskId, m.clientId) ?? deps.bindExtension(m.taskId, m.clientId),
    subscribe_live: (m) => deps.live?.watch(socket, m.taskId) ?? noLive,
    unsubscribe_live: (m) => deps.live?.unwatch(socket, m.taskId) ?? noLive,
    confirmation_answer: (m) => deps.control?.confirmationAnswer?.(m.taskId, m.requestId, m.decision, 'web') ?? noAgent,
    set_task_scope: (m) => deps.control?.setTaskScope?.(m.taskId, m.sites) ?? noAgent,
    set_task_secret: (m) => deps.control?.setTaskSecret?.(m.taskId, m.name, m.value) ?? noAgent,
    show_task_tab: (m) => deps.control?.showTaskTab?.(m.taskId) ?? noAgent,
  };

  socket.on(FRONTEND_MESSAGE_EVENT, async (input: unknown, ack?: (response: unknown) => void) => {
    const reply = typeof ack === 'function' ? ack : () => {};
    const checked = validate(FrontendMessageSchema, input);
    if (!checked.ok) {
      deps.log({ event: 'frontend_message_rejected', socketId: socket.id, error: checked.error });
      reply({ ok: false, error: checked.error });
      return;
    }
    const message = checked.value;
    if (message.type === 'user_message') deps.noteUserText?.(message.content);
    deps.onMessage?.(message.taskId, message);
    try {
      const handler = handlers[message.type] as Handler<typeof message.type>;
      reply(await handler(message as never));
    } catch (error) {
      deps.log({ event: 'frontend_handler_failed', type: message.type, error: String(error) });
      // Store and control errors carry a seed code (CONFLICT, NOT_FOUND, ...): pass it on.
      const coded = error as { code?: unknown; message?: unknown };
      const known = typeof coded?.code === 'string' && coded.code !== 'INTERNAL' && typeof coded.message === 'string';
      reply({
        ok: false,
        error: known
          ? { code: coded.code, message: coded.message }
          : { code: 'INTERNAL', message: 'the server failed to handle this message' },
      });
    }
  });
  socket.on('disconnect', () => {
    for (const stop of inspections.values()) stop();
    inspections.clear();
    deps.live?.viewerGone(socket);
  });
}
