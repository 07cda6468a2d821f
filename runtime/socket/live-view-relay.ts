// Live view relay: frames of a task's tab go from the plugin serving the task to the web sockets
// watching that task, and to no one else (contracts/live-view.ts). The plugin streams only while
// someone watches: the first viewer starts it (plugin_message live_view {on: true}), the last one
// leaving stops it. A viewer that has not acked its previous frame is skipped for the next one
// (the frame is dropped, never queued), so a slow browser cannot build a backlog on the server.
import * as v from 'valibot';
import {
  LiveFrameSchema,
  PROTOCOL_VERSION,
  LIVE_FRAME_EVENT,
  type LiveFrame,
  type LiveViewCommand,
} from '../../transport/contracts/index.ts';
import type { ControlResult } from '../services/task-control.ts';

export interface LiveTarget {
  clientId: string;
  tabId: number;
}

/** A web socket (ServerSocket fits). */
export interface LiveViewer {
  id: string;
  emit(event: string, ...args: unknown[]): boolean;
}

export interface LiveViewRelayDeps {
  /** The plugin and tab serving a task now; null before its tab exists. */
  target(taskId: string): LiveTarget | null;
  sendToPlugin(clientId: string, command: LiveViewCommand): boolean;
  clock: { now(): number };
  log(entry: Record<string, unknown>): void;
  /** A viewer that has not acked for this long is sent the next frame anyway (default 5 s). */
  viewerAckTimeoutMs?: number;
}

export interface LiveViewStats {
  framesIn: number;
  framesOut: number;
  /** Frames not sent to a viewer because it had not acked the previous one. */
  dropped: number;
  rejected: number;
  bytesIn: number;
  bytesOut: number;
}

export interface LiveViewRelay {
  watch(viewer: LiveViewer, taskId: string): ControlResult;
  unwatch(viewer: LiveViewer, taskId: string): ControlResult;
  /** A web socket closed: it stops watching everything. */
  viewerGone(viewer: LiveViewer): void;
  /** A `live_frame` from the plugin `clientId`. */
  onFrame(clientId: string, input: unknown, ack?: (response: unknown) => void): void;
  /** The task ended or lost its plugin: stop streaming it. */
  stopTask(taskId: string): void;
  stats(): LiveViewStats;
  viewers(taskId: string): number;
}

interface Watched {
  viewer: LiveViewer;
  /** When the frame still waiting for this viewer's ack was sent; null when none is. */
  busySince: number | null;
}

interface TaskStream {
  viewers: Map<string, Watched>;
  /** Where the plugin was told to stream, if it was. */
  active: LiveTarget | null;
}

export function createLiveViewRelay(deps: LiveViewRelayDeps): LiveViewRelay {
  const tasks = new Map<string, TaskStream>();
  const ackTimeoutMs = deps.viewerAckTimeoutMs ?? 5_000;
  const stats: LiveViewStats = { framesIn: 0, framesOut: 0, dropped: 0, rejected: 0, bytesIn: 0, bytesOut: 0 };

  function command(taskId: string, target: LiveTarget, on: boolean): void {
    const sent = deps.sendToPlugin(target.clientId, {
      v: PROTOCOL_VERSION,
      type: 'live_view',
      taskId,
      clientId: target.clientId,
      tabId: target.tabId,
      on,
      timestamp: deps.clock.now(),
    });
    deps.log({
      event: on ? 'live_view_start' : 'live_view_stop',
      taskId,
      clientId: target.clientId,
      tabId: target.tabId,
      sent,
    });
  }

  /** Starts, moves or stops the plugin's stream to match the task's viewers and target. */
  function sync(taskId: string): void {
    const stream = tasks.get(taskId);
    if (!stream) return;
    const want = stream.viewers.size > 0 ? deps.target(taskId) : null;
    const had = stream.active;
    if (had && (!want || had.clientId !== want.clientId || had.tabId !== want.tabId)) {
      command(taskId, had, false);
      stream.active = null;
    }
    if (want && !stream.active) {
      command(taskId, want, true);
      stream.active = want;
    }
    if (stream.viewers.size === 0 && !stream.active) tasks.delete(taskId);
  }

  function reject(ack: ((response: unknown) => void) | undefined, code: string, message: string) {
    stats.rejected += 1;
    ack?.({ ok: false, error: { code, message } });
  }

  return {
    watch(viewer, taskId) {
      let stream = tasks.get(taskId);
      if (!stream) tasks.set(taskId, (stream = { viewers: new Map(), active: null }));
      if (!stream.viewers.has(viewer.id)) stream.viewers.set(viewer.id, { viewer, busySince: null });
      sync(taskId);
      return {
        ok: true,
        data: { streaming: stream.active !== null, ...(stream.active ? { tabId: stream.active.tabId } : {}) },
      };
    },
    unwatch(viewer, taskId) {
      tasks.get(taskId)?.viewers.delete(viewer.id);
      sync(taskId);
      return { ok: true };
    },
    viewerGone(viewer) {
      for (const [taskId, stream] of tasks) {
        if (stream.viewers.delete(viewer.id)) sync(taskId);
      }
    },
    onFrame(clientId, input, ack) {
      const parsed = v.safeParse(LiveFrameSchema, input);
      if (!parsed.success)
        return reject(ack, 'SCHEMA_VALIDATION_FAILED', parsed.issues[0]?.message ?? 'not a live frame');
      const frame: LiveFrame = parsed.output;
      const stream = tasks.get(frame.taskId);
      if (!stream?.active || stream.active.clientId !== clientId) {
        // Nobody watches (or another plugin serves the task): tell this plugin to stop.
        if (!stream?.active)
          deps.sendToPlugin(clientId, {
            v: PROTOCOL_VERSION,
            type: 'live_view',
            taskId: frame.taskId,
            clientId,
            on: false,
            timestamp: deps.clock.now(),
          });
        return reject(ack, 'FORBIDDEN', 'no viewer is watching this task from this plugin');
      }
      stats.framesIn += 1;
      stats.bytesIn += frame.data.length;
      const now = deps.clock.now();
      for (const watched of stream.viewers.values()) {
        if (watched.busySince !== null && now - watched.busySince < ackTimeoutMs) {
          stats.dropped += 1;
          continue;
        }
        watched.busySince = now;
        stats.framesOut += 1;
        stats.bytesOut += frame.data.length;
        watched.viewer.emit(LIVE_FRAME_EVENT, frame, () => {
          watched.busySince = null;
        });
      }
      ack?.({ ok: true });
    },
    stopTask(taskId) {
      const stream = tasks.get(taskId);
      if (!stream) return;
      if (stream.active) command(taskId, stream.active, false);
      tasks.delete(taskId);
    },
    stats: () => ({ ...stats }),
    viewers: (taskId) => tasks.get(taskId)?.viewers.size ?? 0,
  };
}
