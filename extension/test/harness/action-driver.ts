// The scripted server side of the end-to-end tests: sends `browser_action` to
// `client:{clientId}` with a Socket.IO ack and collects the matching browser_action_result.
import { nanoid } from 'nanoid';
import { ulid } from 'ulid';
import { packActionCall, PLUGIN_MESSAGE_EVENT, PROTOCOL_VERSION } from '../../../transport/contracts/index.ts';
import type { ActionName, ActionParamsMap, BrowserActionAck } from '../../../transport/contracts/index.ts';
import type { Harness } from './harness-server.ts';

export interface ActionOutcome {
  actionId: string;
  ack: BrowserActionAck;
  /** The browser_action_result message. */
  result: Record<string, unknown> & {
    status: string;
    result?: Record<string, unknown>;
    error?: { code: string; message: string; details?: Record<string, unknown> };
  };
  ackMs: number;
  totalMs: number;
}

export interface ActionDriver {
  taskId: string;
  clientId: string;
  send<K extends ActionName>(
    name: K,
    params: ActionParamsMap[K],
    options?: { actionId?: string; timeoutMs?: number; extra?: Record<string, unknown> },
  ): Promise<ActionOutcome>;
  /** Emits any raw payload as plugin_message with an ack (schema tests). */
  sendRaw(
    message: unknown,
    options?: { resultFor?: string; timeoutMs?: number },
  ): Promise<{ ack: BrowserActionAck; result?: ActionOutcome['result'] }>;
}

export function createActionDriver(harness: Harness, clientId: string, taskId: string = ulid()): ActionDriver {
  async function emitWithAck(message: unknown, timeoutMs: number): Promise<BrowserActionAck> {
    const socket = harness.plugin(clientId);
    if (!socket) throw new Error(`plugin ${clientId} is not connected`);
    return (await socket.timeout(timeoutMs).emitWithAck(PLUGIN_MESSAGE_EVENT, message)) as BrowserActionAck;
  }
  function resultFor(actionId: string, since: number, timeoutMs: number) {
    return harness.waitForMessage(
      (m) => m.type === 'browser_action_result' && m.actionId === actionId,
      timeoutMs,
      since,
    ) as Promise<ActionOutcome['result']>;
  }
  return {
    taskId,
    clientId,
    async send(name, params, options = {}) {
      const actionId = options.actionId ?? `act-${nanoid(10)}`;
      const message = {
        v: PROTOCOL_VERSION,
        type: 'browser_action',
        id: actionId,
        taskId,
        clientId,
        timestamp: Date.now(),
        action: packActionCall(name, params),
        ...options.extra,
      };
      const started = performance.now();
      const since = Date.now();
      const pending = resultFor(actionId, since, options.timeoutMs ?? 30_000);
      pending.catch(() => {}); // awaited below unless the ack already failed
      const ack = await emitWithAck(message, 2_000);
      const ackMs = performance.now() - started;
      const result = await pending;
      return { actionId, ack, result, ackMs, totalMs: performance.now() - started };
    },
    async sendRaw(message, options = {}) {
      const since = Date.now();
      const pending = options.resultFor ? resultFor(options.resultFor, since, options.timeoutMs ?? 5_000) : undefined;
      pending?.catch(() => {});
      const ack = await emitWithAck(message, 2_000);
      return { ack, ...(pending ? { result: await pending } : {}) };
    },
  };
}
