import type { AppState, SidePanel as Panel } from '../app-state.ts';
import { useEffect } from 'preact/hooks';
import type { ConversationChunk } from '../conversation-chunk.ts';
import type { MachinesChunk } from '../machines-chunk.ts';
import type { LazyResource } from '../models/lazy-resource.ts';
import { ExtensionPanel } from './extension-panel.tsx';
import { SnapshotPanel } from './snapshot-panel.tsx';

const tabs: { id: Panel; label: string }[] = [
  { id: 'browser', label: 'Browser' },
  { id: 'machines', label: 'Machines' },
];

export function SidePanel({
  app,
  machines,
  conversation,
}: {
  app: AppState;
  machines: LazyResource<MachinesChunk>;
  conversation: LazyResource<ConversationChunk>;
}) {
  const panel = app.panel.value;
  const LiveView = conversation.value.value?.LiveView;
  const taskOpen = app.currentTaskId.value !== null;
  return (
    <div class="side">
      <div
        class="panel-tabs"
        role="tablist"
        aria-label="Side panel"
        onKeyDown={(e) => {
          // WAI-ARIA tabs: arrows move between tabs (wrapping), Home/End jump; selection follows focus.
          const index = tabs.findIndex((t) => t.id === panel);
          const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[e.key];
          if (next === undefined) return;
          e.preventDefault();
          const target = tabs[(next + tabs.length) % tabs.length]!;
          app.showPanel(target.id);
          (e.currentTarget.querySelector(`#tab-${target.id}`) as HTMLElement | null)?.focus();
        }}
      >
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={panel === t.id}
            aria-controls="side-panel-body"
            tabIndex={panel === t.id ? 0 : -1}
            class={panel === t.id ? 'selected' : ''}
            onClick={() => app.showPanel(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div class="panel-body" id="side-panel-body" role="tabpanel" aria-labelledby={`tab-${panel}`}>
        {panel === 'browser' ? (
          <>
            {LiveView && <LiveView app={app} />}
            <ExtensionPanel extensions={app.extensions} taskOpen={taskOpen} />
            <SnapshotPanel snapshot={app.snapshot} now={app.now.value} />
          </>
        ) : (
          <LazyMachineView app={app} machines={machines} />
        )}
      </div>
    </div>
  );
}

function LazyMachineView({ app, machines }: { app: AppState; machines: LazyResource<MachinesChunk> }) {
  useEffect(() => void machines.load(), []);
  const chunk = machines.value.value;
  if (machines.error.value)
    return <p class="error-text">Could not load the machine definitions: {machines.error.value}</p>;
  if (!chunk) return <p class="muted">Loading machine definitions…</p>;
  const { MachineView } = chunk;
  return (
    <MachineView
      inspection={app.inspection}
      catalog={chunk.catalog}
      stately={chunk.stately}
      taskOpen={app.currentTaskId.value !== null}
    />
  );
}
