import { useEffect, useMemo, useState } from 'preact/hooks';
import type { AppState } from '../app-state.ts';
import { createLiveViewModel } from '../models/live-view-model.ts';

const stateText = {
  off: 'Off',
  waiting: 'Waiting for the first frame…',
  streaming: 'Live',
  unavailable: 'Not available',
} as const;

/**
 * The agent's tab, live, while the task runs: watched only while this page is visible; Take over
 * (and Resume during a takeover) right on it.
 */
export function LiveView({ app }: { app: AppState }) {
  const { status } = app;
  // Built with this (lazily loaded) panel: the first page load carries none of it.
  const live = useMemo(() => createLiveViewModel({ send: app.liveLink.send, clock: app.liveLink.clock }), []);
  useEffect(() => app.liveLink.onFrame((frame, done) => live.apply(frame, done)), []);
  // After a reconnect the server forgot its viewers: subscribe again.
  const connected = app.connection.status.value === 'connected';
  const reconnects = app.connection.reconnects.value;
  useEffect(() => {
    if (connected) live.resubscribe();
  }, [connected, reconnects]);
  const taskId = app.currentTaskId.value;
  const current = status.status.value;
  const active = taskId !== null && (current === 'created' || current === 'running' || current === 'takeover');
  const tabId = app.snapshot.taskTabId.value;
  const [visible, setVisible] = useState(
    () => typeof document === 'undefined' || document.visibilityState === 'visible',
  );

  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onChange);
    return () => {
      document.removeEventListener('visibilitychange', onChange);
      live.watch(null);
    };
  }, []);
  useEffect(() => live.watch(active && visible ? taskId : null, tabId), [active, visible, taskId, tabId]);
  // No frame a while after asking: say so instead of waiting forever (an older extension, or no tab yet).
  const [slow, setSlow] = useState(false);
  const waiting = active && live.state.value === 'waiting' && tabId !== null;
  useEffect(() => {
    setSlow(false);
    if (!waiting) return;
    const timer = setTimeout(() => setSlow(true), 8_000);
    return () => clearTimeout(timer);
  }, [waiting, taskId, tabId]);

  const image = live.image.value;
  if (!taskId || (!active && !image)) return null;
  const state = active ? live.state.value : 'off';
  return (
    <section class="panel-section live" aria-labelledby="live-title" data-testid="live-view" data-state={state}>
      <h2 id="live-title">
        The agent's tab
        <span class={`badge ${state === 'streaming' ? 'state-running' : 'state-new'}`} data-testid="live-state">
          {active ? stateText[state] : 'Last frame'}
        </span>
      </h2>
      <div class="live-screen">
        {image ? (
          <img
            src={image.src}
            width={image.width || undefined}
            height={image.height || undefined}
            alt={`Live view of the task's tab (frame ${image.seq})`}
            data-testid="live-frame"
            data-seq={image.seq}
            onLoad={() => live.shown()}
            onError={() => live.shown()}
          />
        ) : (
          <p class="live-empty muted" data-testid="live-empty">
            {state === 'unavailable'
              ? (live.error.value?.message ?? 'The live view is not available.')
              : slow
                ? 'No picture from the extension yet: it may be a version without the live view, or the tab is not drawing. Take over still works.'
                : 'The tab appears here while the agent works.'}
          </p>
        )}
        {active && (status.canTakeover.value || status.canResume.value) && (
          <div class="live-actions">
            {status.canTakeover.value && (
              <button
                type="button"
                class="btn btn-primary"
                disabled={status.pending.value !== null}
                onClick={() => void status.takeover()}
              >
                Take over
              </button>
            )}
            {status.canResume.value && (
              <button
                type="button"
                class="btn btn-primary"
                disabled={status.pending.value !== null}
                onClick={() => void status.resume()}
              >
                Resume
              </button>
            )}
          </div>
        )}
      </div>
      {image && active && (
        <p class="live-meta muted small" data-testid="live-meta">
          {live.fps.value} fps{live.skipped.value > 0 ? ` · ${live.skipped.value} frames skipped to stay current` : ''}
        </p>
      )}
    </section>
  );
}
