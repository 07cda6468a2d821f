// The live view of the open task's tab: subscribe while the task runs and the page is visible,
// show the newest frame, ack it once shown (the server sends the next frame only then, and drops
// frames for a viewer that is behind). Plain signals; the component reports when a frame is shown.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { LiveFrame } from '../../../transport/contracts/live-view.ts';
import type { AckError, AckResult } from '../io/ack.ts';

export type LiveState = 'off' | 'waiting' | 'streaming' | 'unavailable';

export interface LiveImage {
  src: string;
  width: number;
  height: number;
  seq: number;
  tabId: number;
  receivedAt: number;
}

export interface LiveViewModel {
  state: ReadonlySignal<LiveState>;
  image: ReadonlySignal<LiveImage | null>;
  error: ReadonlySignal<AckError | null>;
  /** Frames per second over the last 2 s. */
  fps: ReadonlySignal<number>;
  /** Frames the server or plugin skipped (gaps in seq). */
  skipped: ReadonlySignal<number>;
  watching: ReadonlySignal<string | null>;
  /** Watch `taskId` (null: stop). Idempotent; `tabKey` changes re-subscribe (the task moved tabs). */
  watch(taskId: string | null, tabKey?: number | null): void;
  /** After a reconnect the server forgot its viewers: subscribe again. */
  resubscribe(): void;
  apply(frame: LiveFrame, done: () => void): void;
  /** The component drew the current frame. */
  shown(): void;
}

const WINDOW_MS = 2_000;

export function createLiveViewModel(deps: {
  send: (type: 'subscribe_live' | 'unsubscribe_live', taskId: string) => Promise<AckResult>;
  clock: { now(): number };
}): LiveViewModel {
  const state = signal<LiveState>('off');
  const image = signal<LiveImage | null>(null);
  const error = signal<AckError | null>(null);
  const watching = signal<string | null>(null);
  const times = signal<number[]>([]);
  const skipped = signal(0);
  let tab: number | null | undefined;
  let pendingDone: (() => void) | null = null;
  let lastSeq = 0;

  async function subscribe(taskId: string) {
    state.value = image.value ? 'streaming' : 'waiting';
    const result = await deps.send('subscribe_live', taskId);
    if (watching.value !== taskId) return;
    if (!result.ok) {
      error.value = result.error;
      state.value = 'unavailable';
    } else {
      error.value = null;
    }
  }

  function release() {
    pendingDone?.();
    pendingDone = null;
  }

  return {
    state,
    image,
    error,
    watching,
    skipped,
    fps: computed(() => {
      const list = times.value;
      if (list.length < 2) return list.length === 1 ? 1 : 0;
      const span = list[list.length - 1]! - list[0]!;
      return span > 0 ? Math.round((((list.length - 1) * 1000) / span) * 10) / 10 : 0;
    }),
    watch(taskId, tabKey) {
      if (taskId === watching.value && tabKey === tab) return;
      const previous = watching.value;
      if (previous && previous !== taskId) void deps.send('unsubscribe_live', previous);
      if (previous !== taskId) {
        image.value = null;
        times.value = [];
        skipped.value = 0;
        lastSeq = 0;
        release();
      }
      watching.value = taskId;
      tab = tabKey;
      if (!taskId) {
        state.value = 'off';
        error.value = null;
        return;
      }
      void subscribe(taskId);
    },
    resubscribe() {
      if (watching.value) void subscribe(watching.value);
    },
    apply(frame, done) {
      if (frame.taskId !== watching.value) return done();
      release(); // a newer frame replaces one not drawn yet
      pendingDone = done;
      const now = deps.clock.now();
      if (lastSeq && frame.seq > lastSeq + 1) skipped.value += frame.seq - lastSeq - 1;
      lastSeq = frame.seq;
      times.value = [...times.value.filter((t) => now - t <= WINDOW_MS), now];
      image.value = {
        src: `data:${frame.mime};base64,${frame.data}`,
        width: frame.width,
        height: frame.height,
        seq: frame.seq,
        tabId: frame.tabId,
        receivedAt: now,
      };
      state.value = 'streaming';
    },
    shown: release,
  };
}
