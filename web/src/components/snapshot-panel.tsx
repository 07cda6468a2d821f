import type { Tab } from '../../../transport/contracts/snapshot.ts';
import type { SnapshotModel } from '../models/snapshot-model.ts';
import { formatAgo, safeImageSrc } from '../text/format.ts';

export function SnapshotPanel({ snapshot, now }: { snapshot: SnapshotModel; now: number }) {
  const view = snapshot.view.value;
  const windows = snapshot.windows.value;
  const taskTab = snapshot.taskTabId.value;
  const activeTab = view?.state.activeTabId ?? null;
  return (
    <section class="panel-section" aria-labelledby="snap-title" data-testid="snapshot-panel" data-seq={view?.seq ?? ''}>
      <h2 id="snap-title">
        Your browser{' '}
        {snapshot.stale.value && view && (
          <span class="badge badge-stale" title="The extension is offline or has not synced for over 30 s">
            stale
          </span>
        )}
      </h2>
      {!view && <p class="muted">No snapshot yet.</p>}
      {view?.state.lastUpdated != null && <p class="muted small">Updated {formatAgo(view.state.lastUpdated, now)}</p>}
      {windows.map((w, i) => (
        <div class={`window${w.active ? ' active-window' : ''}`} key={w.window.windowId}>
          <h3>
            Window {i + 1}
            {w.active && <span class="muted"> · focused</span>}
          </h3>
          {w.groups.map((block, k) => (
            <div key={k} class={block.group ? `tab-group group-${block.group.color ?? 'grey'}` : 'tab-block'}>
              {block.group && <p class="group-title">{block.group.title || 'Group'}</p>}
              <ul class="tabs">
                {block.tabs.map((tab) => (
                  <TabRow key={tab.tabId} tab={tab} active={tab.tabId === activeTab} task={tab.tabId === taskTab} />
                ))}
              </ul>
            </div>
          ))}
        </div>
      ))}
    </section>
  );
}

function TabRow({ tab, active, task }: { tab: Tab; active: boolean; task: boolean }) {
  const icon = tab.favIconUrl ? safeImageSrc(tab.favIconUrl) : null;
  return (
    <li class={`tab${active ? ' tab-active' : ''}${task ? ' tab-task' : ''}`} data-testid="tab" data-tab-id={tab.tabId}>
      {icon ? (
        <img class="favicon" src={icon} alt="" width={16} height={16} />
      ) : (
        <span class="favicon" aria-hidden="true" />
      )}
      <span class="tab-text">
        <span class="tab-title">{tab.title || tab.url || `Tab ${tab.tabId}`}</span>
        {tab.url && <span class="tab-url">{tab.url}</span>}
      </span>
      {task && <span class="badge badge-task">task</span>}
      {active && <span class="badge badge-active">active</span>}
    </li>
  );
}
