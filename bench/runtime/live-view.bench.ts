// Live view: what streaming a task tab costs. One plugin sends JPEG frames at the live view's
// 5 fps for D seconds; V web viewers watch (subscribe_live) and ack each frame. Measured: the
// bandwidth each viewer receives, frames delivered, and the server's CPU (its own process),
// against the reference in the same run: the `socket.io` server relaying the same frames to the
// same viewers with nothing else (no validation, no per-viewer flow control).
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { io as connectIo, type Socket } from 'socket.io-client';
import { LIVE_VIEW_MAX_FPS } from '../../transport/contracts/index.ts';
import { requestStats } from '../child-stats.ts';

const TOKEN = 'bench-live-token';
const TASK = '01HR0000000000000000000001';
/** A 1280x800 JPEG (quality 60) of a text page is 60-120 KB; 90 KB of bytes, sent as base64. */
export const FRAME_BYTES = 90_000;

export interface LiveViewFigures {
  server: 'ours' | 'socketio';
  viewers: number;
  seconds: number;
  framesSent: number;
  framesPerViewer: number;
  kbPerSecondPerViewer: number;
  cpuMsPerSecond: number;
  cpuMicrosPerFrameDelivered: number;
}

function startServer(kind: 'ours' | 'socketio'): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(new URL('./live-view-server.ts', import.meta.url).pathname, [kind], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (m: { type: string; port: number }) => m.type === 'ready' && resolve({ child, port: m.port }));
  });
}

function connect(port: number, auth: Record<string, string>): Promise<Socket> {
  const socket = connectIo(`http://127.0.0.1:${port}/mimo`, {
    auth,
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

export async function benchLiveView(options: {
  kind: 'ours' | 'socketio';
  viewers: number;
  seconds: number;
}): Promise<LiveViewFigures> {
  const { child, port } = await startServer(options.kind);
  const sockets: Socket[] = [];
  try {
    const viewers: { socket: Socket; frames: number; bytes: number }[] = [];
    for (let i = 0; i < options.viewers; i++) {
      const socket = await connect(port, { clientType: 'frontend', token: TOKEN });
      sockets.push(socket);
      const viewer = { socket, frames: 0, bytes: 0 };
      socket.on('live_frame', (frame: { data: string }, ack?: () => void) => {
        viewer.frames += 1;
        viewer.bytes += frame.data.length;
        ack?.();
      });
      viewers.push(viewer);
    }
    const plugin = await connect(port, { clientType: 'plugin', clientId: 'bench-plugin', token: TOKEN });
    sockets.push(plugin);
    for (const { socket } of viewers) {
      await socket.timeout(5_000).emitWithAck('frontend_message', {
        v: 1,
        type: 'subscribe_live',
        id: `evt-${Math.random()}`,
        timestamp: Date.now(),
        taskId: TASK,
      });
    }
    const data = randomBytes(FRAME_BYTES).toString('base64');
    const before = await requestStats<{ cpu: NodeJS.CpuUsage }>(child);
    const started = performance.now();
    let seq = 0;
    const interval = 1000 / LIVE_VIEW_MAX_FPS;
    while (performance.now() - started < options.seconds * 1000) {
      const frame = {
        taskId: TASK,
        tabId: 1,
        seq: ++seq,
        timestamp: Date.now(),
        width: 1280,
        height: 800,
        mime: 'image/jpeg',
        data,
      };
      await plugin.timeout(5_000).emitWithAck('live_frame', frame);
      const next = started + seq * interval;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
    await new Promise((r) => setTimeout(r, 300)); // the last frames land
    const seconds = (performance.now() - started) / 1000;
    const after = await requestStats<{ cpu: NodeJS.CpuUsage }>(child);
    const cpuMicros = after.cpu.user + after.cpu.system - (before.cpu.user + before.cpu.system);
    const delivered = viewers.reduce((n, v) => n + v.frames, 0);
    return {
      server: options.kind,
      viewers: options.viewers,
      seconds,
      framesSent: seq,
      framesPerViewer: delivered / options.viewers,
      kbPerSecondPerViewer: viewers.reduce((n, v) => n + v.bytes, 0) / options.viewers / seconds / 1024,
      cpuMsPerSecond: cpuMicros / 1000 / seconds,
      cpuMicrosPerFrameDelivered: delivered ? cpuMicros / delivered : NaN,
    };
  } finally {
    sockets.forEach((s) => s.close());
    child.kill('SIGINT');
  }
}

export function printLiveView(ours: LiveViewFigures, reference: LiveViewFigures): void {
  const row = (f: LiveViewFigures) =>
    `  ${f.server.padEnd(8)} ${String(f.viewers).padStart(2)} viewers  ${f.framesPerViewer.toFixed(0).padStart(4)}/${f.framesSent} frames each  ${f.kbPerSecondPerViewer.toFixed(0).padStart(5)} KB/s per viewer  server CPU ${f.cpuMsPerSecond.toFixed(1).padStart(6)} ms/s  ${f.cpuMicrosPerFrameDelivered.toFixed(0).padStart(5)} µs per frame delivered`;
  console.log(row(ours));
  console.log(row(reference));
  console.log(
    `  ratio ours/socket.io: server CPU ×${(ours.cpuMsPerSecond / reference.cpuMsPerSecond).toFixed(2)}, bandwidth ×${(ours.kbPerSecondPerViewer / reference.kbPerSecondPerViewer).toFixed(2)} (frame ${(FRAME_BYTES / 1024).toFixed(0)} KB JPEG as base64, ${LIVE_VIEW_MAX_FPS} fps)`,
  );
}
