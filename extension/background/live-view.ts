// Live view of a task tab (contracts/live-view.ts): while the server says someone watches, the
// task tab is streamed with CDP Page.startScreencast (JPEG) and each frame goes to the server as a
// `live_frame` with an ack. At most `maxFps` frames a second: Chrome's frame is acknowledged
// (which lets it produce the next one) only once the interval has passed, so the tab is not
// encoded faster than it is sent. A frame that arrives while the previous one is still unacked
// by the server is dropped, never queued. Stopping restores the keepalive screencast that
// cdp-sessions.ts runs on every attached tab.
import { LIVE_VIEW_MAX_FPS, type LiveFrame, type LiveViewCommand } from '../../transport/contracts/index.ts';
import type { ApiEvent, DebuggeeTarget, Timers } from '../shared/browser-api.ts';
import { messageOf } from './action-failure.ts';
import { SCREENCAST_KEEPALIVE, type CdpSessions } from './cdp-sessions.ts';

export const LIVE_SCREENCAST = {
  format: 'jpeg',
  quality: 60,
  maxWidth: 1280,
  maxHeight: 800,
  everyNthFrame: 1,
} as const;
/** A server ack older than this no longer holds frames back (a lost ack must not freeze the view). */
export const LIVE_ACK_TIMEOUT_MS = 5_000;

export interface LiveViewDeps {
  cdp: CdpSessions;
  /** chrome.debugger.onEvent (absent without the debugger API). */
  cdpEvents: ApiEvent<(source: DebuggeeTarget, method: string, params?: unknown) => void> | undefined;
  /** Is `tabId` this task's tab? (the server may only stream the task's own tab). */
  isTaskTab(taskId: string, tabId: number): Promise<boolean>;
  /** Emits one frame with an ack; false when the socket is not connected. */
  sendFrame(frame: LiveFrame, onAck: (response: unknown) => void): boolean;
  timers: Timers;
  now(): number;
  log?(message: string): void;
}

export interface LiveViewStats {
  sent: number;
  /** Frames skipped because the server had not acked the previous one. */
  droppedBusy: number;
  cdpFrames: number;
}

interface Stream {
  taskId: string;
  tabId: number;
  intervalMs: number;
  seq: number;
  lastSentAt: number;
  /** When the unacked frame was sent; null when none is waiting. */
  awaitingSince: number | null;
  ackTimer: unknown;
}

interface ScreencastFrame {
  data: string;
  sessionId: number;
  metadata?: { deviceWidth?: number; deviceHeight?: number };
}

export function createLiveView(deps: LiveViewDeps) {
  const streams = new Map<number, Stream>();
  const stats: LiveViewStats = { sent: 0, droppedBusy: 0, cdpFrames: 0 };

  function ackCdp(stream: Stream, sessionId: number): void {
    // Let Chrome make the next frame only when the next one may be sent.
    const wait = Math.max(0, stream.lastSentAt + stream.intervalMs - deps.now());
    deps.timers.clearTimeout(stream.ackTimer);
    stream.ackTimer = deps.timers.setTimeout(() => {
      if (streams.get(stream.tabId) !== stream) return;
      void deps.cdp.send(stream.tabId, 'Page.screencastFrameAck', { sessionId }).catch(() => {});
    }, wait);
  }

  function onFrame(stream: Stream, frame: ScreencastFrame): void {
    stats.cdpFrames += 1;
    const now = deps.now();
    const busy = stream.awaitingSince !== null && now - stream.awaitingSince < LIVE_ACK_TIMEOUT_MS;
    if (busy || now - stream.lastSentAt < stream.intervalMs) {
      if (busy) stats.droppedBusy += 1;
    } else {
      const out: LiveFrame = {
        taskId: stream.taskId,
        tabId: stream.tabId,
        seq: ++stream.seq,
        timestamp: now,
        width: Math.round(frame.metadata?.deviceWidth ?? 0),
        height: Math.round(frame.metadata?.deviceHeight ?? 0),
        mime: 'image/jpeg',
        data: frame.data,
      };
      const sentAt = now;
      if (
        deps.sendFrame(out, () => {
          if (stream.awaitingSince === sentAt) stream.awaitingSince = null;
        })
      ) {
        stream.awaitingSince = sentAt;
        stream.lastSentAt = now;
        stats.sent += 1;
      }
    }
    ackCdp(stream, frame.sessionId);
  }

  deps.cdpEvents?.addListener((source, method, params) => {
    if (method !== 'Page.screencastFrame' || source.tabId === undefined) return;
    const stream = streams.get(source.tabId);
    // Frames of the keepalive screencast are left unacknowledged on purpose (cdp-sessions.ts).
    if (stream) onFrame(stream, params as ScreencastFrame);
  });

  async function stop(tabId: number): Promise<void> {
    const stream = streams.get(tabId);
    if (!stream) return;
    streams.delete(tabId);
    deps.timers.clearTimeout(stream.ackTimer);
    if (!deps.cdp.isAttached(tabId)) return;
    await deps.cdp.send(tabId, 'Page.stopScreencast').catch(() => {});
    await deps.cdp.send(tabId, 'Page.startScreencast', SCREENCAST_KEEPALIVE).catch(() => {});
  }

  return {
    stats: () => ({ ...stats }),
    streaming: (tabId: number) => streams.has(tabId),
    /** Applies a server `live_view` command; resolves with the ack to send back. */
    async command(
      command: LiveViewCommand,
    ): Promise<{ ok: true } | { ok: false; error: { code: string; message: string } }> {
      if (!command.on) {
        for (const stream of [...streams.values()]) {
          if (stream.taskId === command.taskId && (command.tabId === undefined || stream.tabId === command.tabId))
            await stop(stream.tabId);
        }
        return { ok: true };
      }
      const tabId = command.tabId;
      if (tabId === undefined)
        return { ok: false, error: { code: 'SCHEMA_VALIDATION_FAILED', message: 'live_view on needs a tabId' } };
      if (!(await deps.isTaskTab(command.taskId, tabId))) {
        return {
          ok: false,
          error: { code: 'INVALID_TASK_TAB', message: `tab ${tabId} is not the tab of task ${command.taskId}` },
        };
      }
      // Another task's stream on this tab, or a restart: one stream per tab.
      await stop(tabId);
      const stream: Stream = {
        taskId: command.taskId,
        tabId,
        intervalMs: 1000 / Math.min(command.maxFps ?? LIVE_VIEW_MAX_FPS, LIVE_VIEW_MAX_FPS),
        seq: 0,
        lastSentAt: -Infinity,
        awaitingSince: null,
        ackTimer: undefined,
      };
      streams.set(tabId, stream);
      try {
        await deps.cdp.attach(tabId);
        await deps.cdp.send(tabId, 'Page.stopScreencast').catch(() => {});
        await deps.cdp.send(tabId, 'Page.startScreencast', { ...LIVE_SCREENCAST });
        deps.log?.(`live view: streaming tab ${tabId} of task ${command.taskId}`);
        return { ok: true };
      } catch (error) {
        streams.delete(tabId);
        return {
          ok: false,
          error: { code: 'CDP_UNAVAILABLE', message: `the live view could not start: ${messageOf(error)}` },
        };
      }
    },
    /** The tab went away or the debugger detached. */
    forget(tabId: number): void {
      const stream = streams.get(tabId);
      if (stream) deps.timers.clearTimeout(stream.ackTimer);
      streams.delete(tabId);
    },
  };
}

export type LiveView = ReturnType<typeof createLiveView>;
