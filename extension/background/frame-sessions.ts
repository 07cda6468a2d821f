// Out-of-process frames (a cross-site iframe under site isolation runs in a renderer of its own,
// which the tab's debugger session cannot read) reached through child sessions of the tab's
// chrome.debugger attachment: Target.setAutoAttach (flatten) on the tab and on each child, then
// commands with {tabId, sessionId} (Chromium 125+). A child session's frame id is its target id.
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
  /** Turns auto-attach on (idempotent, so a re-attached tab gets it again) and lists the tab's out-of-process frames. */
  list(tabId: number): Promise<FrameSession[]>;
  /** The child session of an out-of-process frame, if `frameId` is one. */
  sessionOf(tabId: number, frameId: string): FrameSession | undefined;
  forget(tabId: number): void;
}

const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true };

interface AttachedEvent {
  sessionId?: string;
  targetInfo?: { targetId?: string; type?: string; url?: string };
}

export function createFrameSessions(api: BrowserApi['debugger'], send: SessionSend): FrameSessions {
  const byTab = new Map<number, Map<string, FrameSession>>();
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
    }
  });
  api?.onDetach.addListener((source) => {
    if (source.tabId !== undefined) byTab.delete(source.tabId);
  });

  return {
    async list(tabId) {
      // Chromium reports the frames already there (Target.attachedToTarget) before it answers.
      await send(tabId, 'Target.setAutoAttach', AUTO_ATTACH);
      return [...(byTab.get(tabId)?.values() ?? [])];
    },
    sessionOf: (tabId, frameId) => byTab.get(tabId)?.get(frameId),
    forget: (tabId) => void byTab.delete(tabId),
  };
}
