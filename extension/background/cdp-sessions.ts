// chrome.debugger (CDP) sessions per tab. Attaching also turns on focus emulation
// (`Emulation.setFocusEmulationEnabled`), without which input to a background tab stalls or is
// dropped and screenshots hang in a real browser (shared/notes/chromium-extension-testing.md).
// Every command is bounded by a timeout so a wedged renderer cannot hang an action.
import type { BrowserApi, Timers } from '../shared/browser-api.ts';
import { messageOf } from './action-failure.ts';
import { createFrameSessions, type FrameSessions } from './frame-sessions.ts';

export const CDP_PROTOCOL_VERSION = '1.3';
export const CDP_COMMAND_TIMEOUT_MS = 5_000;
export const SCREENCAST_KEEPALIVE = { format: 'jpeg', quality: 1, maxWidth: 16, maxHeight: 16, everyNthFrame: 1_000 };

export class CdpError extends Error {
  constructor(
    message: string,
    /** `unavailable`: no debugger API, disabled, or attach refused; `command`: a command failed; `timeout`. */
    readonly kind: 'unavailable' | 'command' | 'timeout',
  ) {
    super(message);
    this.name = 'CdpError';
  }
}

export interface CdpSessions {
  /** Attaches (once) and enables focus emulation; rejects with CdpError('unavailable'). */
  attach(tabId: number): Promise<void>;
  /**
   * `timeoutMs` overrides the command timeout for one slow read (the accessibility tree of a big
   * page); `sessionId` sends to an out-of-process frame's child session (`frames`).
   */
  send<T = unknown>(
    tabId: number,
    method: string,
    params?: Record<string, unknown>,
    options?: { timeoutMs?: number; sessionId?: string },
  ): Promise<T>;
  /** The tab's out-of-process frames and their child sessions. */
  frames: FrameSessions;
  detach(tabId: number): Promise<void>;
  isAttached(tabId: number): boolean;
}

export interface CdpSessionsDeps {
  browser: BrowserApi;
  timers: Timers;
  /** false when the user turned CDP off in the options page. */
  enabled(): boolean;
  commandTimeoutMs?: number;
  /** Right after attaching, before anything else is sent (navigation-guard.ts turns on Fetch here). */
  onAttached?(tabId: number): Promise<void>;
  /** Runs after every fresh attach (navigation tracking); a failure there does not fail the attach. */
  afterAttach?(
    tabId: number,
    send: <T = unknown>(method: string, params?: Record<string, unknown>) => Promise<T>,
  ): Promise<void>;
  /** Runs when this side detaches a tab. */
  afterDetach?(tabId: number): void;
}

export function createCdpSessions(deps: CdpSessionsDeps): CdpSessions {
  const api = deps.browser.debugger;
  const attached = new Set<number>();
  let frames: FrameSessions;
  const attaching = new Map<number, Promise<void>>();
  const timeoutMs = deps.commandTimeoutMs ?? CDP_COMMAND_TIMEOUT_MS;

  api?.onDetach.addListener((source) => {
    if (source.tabId !== undefined) attached.delete(source.tabId);
  });

  function bounded<T>(work: Promise<T>, what: string, limitMs = timeoutMs): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = deps.timers.setTimeout(
        () => reject(new CdpError(`${what} timed out after ${limitMs} ms`, 'timeout')),
        limitMs,
      );
      work.then(
        (value) => (deps.timers.clearTimeout(timer), resolve(value)),
        (error) => (deps.timers.clearTimeout(timer), reject(error)),
      );
    });
  }

  async function rawSend<T>(
    tabId: number,
    method: string,
    params?: Record<string, unknown>,
    limitMs?: number,
    sessionId?: string,
  ): Promise<T> {
    if (!api) throw new CdpError('chrome.debugger is not available in this browser', 'unavailable');
    try {
      const target = sessionId ? { tabId, sessionId } : { tabId };
      const sent = api.sendCommand(target, method, params ?? {});
      return (await bounded(sessionId ? untilGone(sent, sessionId) : sent, `CDP ${method}`, limitMs)) as T;
    } catch (error) {
      if (error instanceof CdpError) throw error;
      const message = messageOf(error);
      // A child session that went away (its frame navigated) says nothing about the tab's own.
      if (!sessionId && /not attached|detached/i.test(message)) attached.delete(tabId);
      throw new CdpError(`CDP ${method} failed: ${message}`, 'command');
    }
  }

  /** A command to a child session fails as soon as that session goes (Chromium would leave it unanswered). */
  function untilGone<T>(sent: Promise<T>, sessionId: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const stop = frames.onGone(sessionId, () =>
        reject(new Error("the frame's session went away (its frame navigated or was removed)")),
      );
      sent.then(
        (value) => (stop(), resolve(value)),
        (error) => (stop(), reject(error)),
      );
    });
  }

  async function doAttach(tabId: number): Promise<void> {
    if (!api) throw new CdpError('chrome.debugger is not available in this browser', 'unavailable');
    try {
      await bounded(api.attach({ tabId }, CDP_PROTOCOL_VERSION), 'chrome.debugger.attach');
    } catch (error) {
      const message = messageOf(error);
      // Ours from a previous service-worker life: the session is still there and usable.
      const ours =
        /already attached/i.test(message) &&
        (await rawSend(tabId, 'Runtime.evaluate', { expression: '1' }).then(
          () => true,
          () => false,
        ));
      if (!ours) throw new CdpError(`chrome.debugger.attach refused: ${message}`, 'unavailable');
    }
    attached.add(tabId);
    await deps.onAttached?.(tabId).catch(() => {});
    try {
      await rawSend(tabId, 'Emulation.setFocusEmulationEnabled', { enabled: true });
    } catch (error) {
      attached.delete(tabId);
      await api.detach({ tabId }).catch(() => {});
      throw new CdpError(`focus emulation could not be enabled: ${messageOf(error)}`, 'unavailable');
    }
    // Measured in a plain (non-Playwright) Chromium: without a running screencast every second
    // Page.captureScreenshot of a background tab waits for a frame that never comes. A screencast
    // whose frames are never acknowledged keeps the tab producing frames at almost no cost.
    await rawSend(tabId, 'Page.startScreencast', SCREENCAST_KEEPALIVE).catch(() => {});
    await deps.afterAttach?.(tabId, (method, params) => rawSend(tabId, method, params)).catch(() => {});
  }

  async function attach(tabId: number): Promise<void> {
    if (!deps.enabled()) throw new CdpError('CDP is turned off in the Mimo options', 'unavailable');
    if (attached.has(tabId)) return;
    let pending = attaching.get(tabId);
    if (!pending) {
      pending = doAttach(tabId).finally(() => attaching.delete(tabId));
      attaching.set(tabId, pending);
    }
    return pending;
  }

  // Assigned after rawSend, which it sends with (rawSend reads it only once commands flow).
  frames = createFrameSessions(api, (tabId, method, params, sessionId) =>
    rawSend(tabId, method, params, undefined, sessionId),
  );

  return {
    attach,
    async send<T>(
      tabId: number,
      method: string,
      params?: Record<string, unknown>,
      options?: { timeoutMs?: number; sessionId?: string },
    ) {
      await attach(tabId);
      return rawSend<T>(tabId, method, params, options?.timeoutMs, options?.sessionId);
    },
    frames,
    async detach(tabId) {
      const was = attached.delete(tabId);
      frames.forget(tabId);
      deps.afterDetach?.(tabId);
      if (was && api) await api.detach({ tabId }).catch(() => {});
    },
    isAttached: (tabId) => attached.has(tabId),
  };
}
