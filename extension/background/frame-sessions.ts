// Out-of-process frames (a cross-site iframe under site isolation runs in a renderer of its own,
// which the tab's debugger session cannot read) reached through child sessions of the tab's
// chrome.debugger attachment: Target.setAutoAttach (flatten) once on the tab and once on each
// child as it attaches, then commands with {tabId, sessionId} (Chromium 125+). The list is kept
// current by Target.attachedToTarget / detachedFromTarget, so reading it costs no round trip.
// A child session's frame id is its target id.
import type { BrowserApi } from '../shared/browser-api.ts';

export interface FrameSession {
  /** The out-of-process frame's id (its target id). */
  frameId: string;
  sessionId: string;
  url: string;
  /** The session that attached it (undefined: the tab's own), where its <iframe> lives. */
  parentSessionId?: string;
}

export type SessionSend = <T = unknown>(
  tabId: number,
  method: string,
  params: Record<string, unknown>,
  sessionId?: string,
) => Promise<T>;

export interface FrameSessions {
  /**
   * The tab's out-of-process frames. The first call for a tab (after attaching, or in a restarted
   * worker) turns auto-attach off and on, and Chromium reports the frames already there before it answers.
   */
  list(tabId: number): Promise<FrameSession[]>;
  /** The child session of an out-of-process frame, if `frameId` is one. */
  sessionOf(tabId: number, frameId: string): FrameSession | undefined;
  /** The out-of-process frame a child session belongs to. */
  bySession(tabId: number, sessionId: string): FrameSession | undefined;
  /**
   * Settles when the child session detaches (its frame navigated to another process or went
   * away; the tab detached). Chromium leaves a command sent to a session that goes away
   * unanswered (measured: an accessibility tree read waited out its 20 s bound), so commands
   * there race this. Returns the function that stops listening.
   */
  onGone(sessionId: string, listener: () => void): () => void;
  forget(tabId: number): void;
}

const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true };

interface AttachedEvent {
  sessionId?: string;
  targetInfo?: { targetId?: string; type?: string; url?: string };
}

export function createFrameSessions(api: BrowserApi['debugger'], send: SessionSend): FrameSessions {
  const byTab = new Map<number, Map<string, FrameSession>>();
  /** Tabs whose auto-attach is on (or being turned on). */
  const autoAttached = new Map<number, Promise<void>>();
  /** Listeners for a child session to go, by session id. */
  const goneListeners = new Map<string, Set<() => void>>();
  const settleGone = (sessionId: string) => {
    const listeners = goneListeners.get(sessionId);
    goneListeners.delete(sessionId);
    for (const listener of listeners ?? []) listener();
  };
  const sessionsOf = (tabId: number) => {
    let sessions = byTab.get(tabId);
    if (!sessions) byTab.set(tabId, (sessions = new Map()));
    return sessions;
  };

  api?.onEvent.addListener((source, method, params) => {
    if (source.tabId === undefined) return;
    if (method === 'Target.attachedToTarget') {
      const event = params as AttachedEvent;
      const info = event.targetInfo;
      if (!event.sessionId || info?.type !== 'iframe' || !info.targetId) return;
      const session: FrameSession = { frameId: info.targetId, sessionId: event.sessionId, url: info.url ?? '' };
      if (source.sessionId) session.parentSessionId = source.sessionId;
      sessionsOf(source.tabId).set(session.frameId, session);
      // Frames inside that frame, in yet another process.
      void send(source.tabId, 'Target.setAutoAttach', AUTO_ATTACH, event.sessionId).catch(() => {});
    } else if (method === 'Target.detachedFromTarget') {
      const sessionId = (params as { sessionId?: string }).sessionId;
      const sessions = byTab.get(source.tabId);
      for (const [frameId, session] of sessions ?? []) if (session.sessionId === sessionId) sessions!.delete(frameId);
      if (sessionId) settleGone(sessionId);
    }
  });
  const forget = (tabId: number) => {
    for (const session of byTab.get(tabId)?.values() ?? []) settleGone(session.sessionId);
    byTab.delete(tabId);
    autoAttached.delete(tabId);
  };
  api?.onDetach.addListener((source) => {
    if (source.tabId !== undefined) forget(source.tabId);
  });

  return {
    async list(tabId) {
      let on = autoAttached.get(tabId);
      if (!on) {
        // Turned off first: a tab this worker's previous life attached still auto-attaches, and a
        // second setAutoAttach reports nothing (measured), so its frames would stay unknown. Off
        // detaches the old child sessions; on attaches them again and reports each one.
        on = send(tabId, 'Target.setAutoAttach', { ...AUTO_ATTACH, autoAttach: false })
          .then(() => send(tabId, 'Target.setAutoAttach', AUTO_ATTACH))
          .then(() => undefined);
        autoAttached.set(tabId, on);
        // A refusal (the tab detached meanwhile) is asked again next time.
        on.catch(() => autoAttached.get(tabId) === on && autoAttached.delete(tabId));
      }
      await on;
      return [...(byTab.get(tabId)?.values() ?? [])];
    },
    sessionOf: (tabId, frameId) => byTab.get(tabId)?.get(frameId),
    bySession: (tabId, sessionId) => [...(byTab.get(tabId)?.values() ?? [])].find((s) => s.sessionId === sessionId),
    onGone(sessionId, listener) {
      let listeners = goneListeners.get(sessionId);
      if (!listeners) goneListeners.set(sessionId, (listeners = new Set()));
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && goneListeners.get(sessionId) === listeners) goneListeners.delete(sessionId);
      };
    },
    forget,
  };
}
