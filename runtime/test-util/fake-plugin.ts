// A scripted browser extension on the real socket.io-client, for tests and benchmarks: it
// registers, syncs a snapshot, and answers each browser_action as its `answer` function says
// (ack or not, result or not, delays, duplicates, late results).
import { io, type Socket } from 'socket.io-client';

export interface BrowserActionFrame {
  v: 1;
  type: 'browser_action';
  id: string;
  taskId: string;
  clientId: string;
  timestamp: number;
  action: Record<string, Record<string, unknown>>;
  screenshotPresignedUrl?: string;
}

export interface FakeAnswer {
  /** Call the Socket.IO ack (default true). */
  ack?: boolean;
  /** The result to send; null sends none. */
  result?: {
    status: 'success' | 'partial' | 'error';
    result?: Record<string, unknown>;
    error?: { code: string; message: string; retryable?: boolean };
  } | null;
  /** Wait before sending the result (ms, real time: for benchmarks; tests use `until`). */
  delayMs?: number;
  /** Send the result only once this settles (the test decides when the browser finishes). */
  until?: Promise<unknown>;
  /** Send the same result twice. */
  duplicate?: boolean;
  /** Send the result in the legacy format (no `type`). */
  legacy?: boolean;
}

export type Answerer = (
  name: string,
  params: Record<string, unknown>,
  frame: BrowserActionFrame,
) => FakeAnswer | Promise<FakeAnswer>;

export interface FakePlugin {
  socket: Socket;
  clientId: string;
  received: BrowserActionFrame[];
  /** Frames the answerer ran (with `dedupe`, a repeated actionId is not run again). */
  executed: BrowserActionFrame[];
  /** Every plugin_message the server sent (browser_action, plugin_ui_state, ...), in order. */
  frames: Array<Record<string, unknown>>;
  /** Every ack the server answered this plugin's messages with. */
  acks: unknown[];
  /** Sends a plugin_message and resolves with the server's ack. */
  send(message: Record<string, unknown>): Promise<any>;
  sendResult(frame: BrowserActionFrame, answer: NonNullable<FakeAnswer['result']>, legacy?: boolean): void;
  close(): void;
}

/** A promise the test resolves by hand: `const gate = deferred(); ... gate.resolve()`. */
export function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export const okAnswer = (name: string, params: Record<string, unknown>): FakeAnswer => ({
  result: { status: 'success', result: defaultResultOf(name, params) },
});

/**
 * A small page as the extension reads it: its readable text, a screenshot artifact and a
 * one-element index; every other action answered as okAnswer does.
 */
export function pageAnswerer(
  page: { title?: string; text?: string; element?: { tag: string; text: string } } = {},
): Answerer {
  const { title = 'Form', text = 'A form.', element = { tag: 'button', text: 'Go' } } = page;
  return (name, params) => {
    if (name === 'browser_readability_extract') return { result: { status: 'success', result: { title, text } } };
    if (name === 'browser_screenshot')
      return {
        result: {
          status: 'success',
          result: { artifactId: 'art-abcdefghijklmnop', url: 'http://x/a', width: 1, height: 1 },
        },
      };
    if (name === 'browser_dom_index')
      return { result: { status: 'success', result: { elements: [{ clickId: 1, ...element }] } } };
    return okAnswer(name, params);
  };
}

export function defaultResultOf(name: string, params: Record<string, unknown>): Record<string, unknown> {
  switch (name) {
    case 'task_start':
      return { tabId: 101, windowId: 1, url: String(params.url ?? 'about:blank'), title: 'Fake tab' };
    case 'browser_debugger_attach':
      return { attached: true };
    case 'task_stop':
      return { stopped: true };
    case 'browser_wait_for_loaded':
      return { status: 'complete' };
    case 'browser_click':
      return { clicked: true, strategy: 'cdp_mouse' };
    case 'browser_type':
      return { typed: true, strategy: 'cdp_key' };
    default:
      return {};
  }
}

export async function startFakePlugin(options: {
  url: string;
  clientId: string;
  token?: string;
  answer?: Answerer;
  snapshot?: Record<string, unknown>;
  register?: boolean;
  /** Seed 001 §4.2: a browser_action whose actionId was seen is not run again; its result is sent again. */
  dedupe?: boolean;
}): Promise<FakePlugin> {
  const socket = io(`${options.url}/mimo`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth: { clientType: 'plugin', clientId: options.clientId, ...(options.token ? { token: options.token } : {}) },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const received: BrowserActionFrame[] = [];
  const executed: BrowserActionFrame[] = [];
  const answers = new Map<string, Promise<FakeAnswer>>();
  const frames: Array<Record<string, unknown>> = [];
  const acks: unknown[] = [];
  const answer = options.answer ?? okAnswer;

  const plugin: FakePlugin = {
    socket,
    clientId: options.clientId,
    received,
    executed,
    frames,
    acks,
    send: async (message) => {
      const ack = await socket.timeout(5_000).emitWithAck('plugin_message', message);
      acks.push(ack);
      return ack;
    },
    sendResult(frame, result, legacy = false) {
      const message = legacy
        ? {
            actionId: frame.id,
            status: result.status,
            ...(result.result ? { result: result.result } : {}),
            ...(result.error ? { error: result.error.code } : {}),
          }
        : {
            v: 1,
            type: 'browser_action_result',
            actionId: frame.id,
            taskId: frame.taskId,
            clientId: options.clientId,
            ...result,
          };
      socket.emit('plugin_message', message);
    },
    close: () => socket.close(),
  };

  socket.on('plugin_message', async (frame: BrowserActionFrame, ack?: (x: unknown) => void) => {
    frames.push(frame as unknown as Record<string, unknown>);
    if (frame?.type !== 'browser_action') return;
    received.push(frame);
    const [name, params] = Object.entries(frame.action)[0]!;
    let pending = options.dedupe ? answers.get(frame.id) : undefined;
    if (!pending) {
      executed.push(frame);
      pending = Promise.resolve(answer(name, params, frame));
      if (options.dedupe) answers.set(frame.id, pending);
    }
    const reply = await pending;
    if (reply.ack !== false) ack?.({ ok: true });
    if (!reply.result) return;
    const result = reply.result;
    const deliver = () => {
      plugin.sendResult(frame, result, reply.legacy);
      if (reply.duplicate) plugin.sendResult(frame, result, reply.legacy);
    };
    if (reply.until) void reply.until.then(deliver, deliver);
    else if (reply.delayMs) setTimeout(deliver, reply.delayMs);
    else deliver();
  });

  if (options.register !== false) {
    await plugin.send({
      v: 1,
      type: 'activate_extension',
      id: `act-hello-${options.clientId}`,
      clientId: options.clientId,
      version: '0.0.0-test',
      browserName: 'fake',
    });
    await plugin.send({
      v: 1,
      type: 'full_state_sync',
      windows: [{ windowId: 1, focused: true }],
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
      tabGroups: [],
      activeWindowId: 1,
      activeTabId: 1,
      timestamp: Date.now(),
      ...options.snapshot,
    });
  }
  return plugin;
}
