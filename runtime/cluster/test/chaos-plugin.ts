// A fake browser extension for the chaos run that behaves as a real one does when its server
// node goes away: it reconnects to another node (the load balancer's pick) under the same
// clientId, registers again, keeps deduplicating by actionId (seed 001 §4.2: a frame seen before
// is not run again, its result is sent again), and sends a result that was ready while it was
// disconnected once it is back. Every frame it ran is kept, for the checker.
import { io, type Socket } from 'socket.io-client';
import { okAnswer, type BrowserActionFrame } from '../../test-util/fake-plugin.ts';

export interface RoamingPlugin {
  clientId: string;
  /** Frames it actually ran (one per actionId). */
  executed: BrowserActionFrame[];
  /** Every browser_action frame it got (a re-sent one twice). */
  received: BrowserActionFrame[];
  reconnects: number;
  close(): void;
}

type Result = { status: 'success'; result: Record<string, unknown> };

function resultOf(name: string, params: Record<string, unknown>): Result {
  if (name === 'browser_readability_extract')
    return { status: 'success', result: { title: 'Page', text: 'A page with three buttons.' } };
  if (name === 'browser_dom_index')
    return {
      status: 'success',
      result: { elements: [1, 2, 3].map((clickId) => ({ clickId, tag: 'button', text: `B${clickId}` })) },
    };
  return okAnswer(name, params).result as Result;
}

export function startRoamingPlugin(options: {
  clientId: string;
  token: string;
  pickUrl: () => string | undefined;
  workMs?: () => number;
}): RoamingPlugin {
  const executed: BrowserActionFrame[] = [];
  const received: BrowserActionFrame[] = [];
  const answers = new Map<string, Promise<Result>>();
  const unsent: Array<Record<string, unknown>> = [];
  let socket: Socket | undefined;
  let closed = false;
  const plugin: RoamingPlugin = { clientId: options.clientId, executed, received, reconnects: 0, close };

  const emitResult = (message: Record<string, unknown>) => {
    if (socket?.connected) socket.emit('plugin_message', message);
    else unsent.push(message);
  };

  function connect(): void {
    if (closed) return;
    const url = options.pickUrl();
    if (!url) return void setTimeout(connect, 200);
    const next = io(`${url}/mimo`, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: { clientType: 'plugin', clientId: options.clientId, token: options.token },
    });
    socket = next;
    next.on('connect', async () => {
      try {
        await next.timeout(5_000).emitWithAck('plugin_message', {
          v: 1,
          type: 'activate_extension',
          id: `hello-${options.clientId}-${Date.now()}`,
          clientId: options.clientId,
          version: '0.0.0-chaos',
          browserName: 'fake',
        });
        await next.timeout(5_000).emitWithAck('plugin_message', {
          v: 1,
          type: 'full_state_sync',
          windows: [{ windowId: 1, focused: true }],
          activeWindowId: 1,
          activeTabId: 1,
          tabGroups: [],
          timestamp: Date.now(),
          tabs: [
            {
              tabId: 1,
              windowId: 1,
              active: true,
              pinned: false,
              hidden: false,
              index: 0,
              url: 'http://127.0.0.1/',
              title: 'Home',
            },
          ],
        });
      } catch {
        // the node went away again: the disconnect handler moves on
      }
      for (const message of unsent.splice(0)) next.emit('plugin_message', message);
    });
    const retry = () => {
      next.removeAllListeners();
      next.close();
      if (closed || socket !== next) return;
      plugin.reconnects++;
      setTimeout(connect, 200);
    };
    next.on('disconnect', retry);
    next.on('connect_error', retry);
    next.on('plugin_message', (frame: BrowserActionFrame, ack?: (x: unknown) => void) => {
      if (frame?.type !== 'browser_action') return;
      received.push(frame);
      ack?.({ ok: true });
      const [name, params] = Object.entries(frame.action)[0]! as [string, Record<string, unknown>];
      let pending = answers.get(frame.id);
      if (!pending) {
        executed.push(frame);
        const ms = options.workMs?.() ?? 0;
        pending = new Promise<Result>((resolve) => setTimeout(() => resolve(resultOf(name, params)), ms));
        answers.set(frame.id, pending);
      }
      void pending.then((result) =>
        emitResult({
          v: 1,
          type: 'browser_action_result',
          actionId: frame.id,
          taskId: frame.taskId,
          clientId: options.clientId,
          ...result,
        }),
      );
    });
  }

  function close(): void {
    closed = true;
    socket?.removeAllListeners();
    socket?.close();
  }

  connect();
  return plugin;
}
