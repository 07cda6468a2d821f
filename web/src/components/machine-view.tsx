import type { InspectionModel } from '../models/inspection-model.ts';
import type { CatalogEntry } from '../models/machine-catalog.ts';
import { activePaths, formatStateValue } from '../models/machine-chart.ts';
import type { StatelyBridge } from '../models/stately-bridge.ts';
import { useState } from 'preact/hooks';
import { inspectionView } from '../models/inspection-view.ts';
import { actorLabel } from '../models/actor-label.ts';
import { Statechart } from './statechart.tsx';

const statelyText = {
  closed: '',
  opening: 'Opening the Stately Inspector…',
  waiting: 'Waiting for the Stately Inspector window to answer…',
  connected: 'Stately Inspector connected: it receives these actors live.',
  blocked: '',
  unreachable: '',
  failed: '',
} as const;

type ViewActor = NonNullable<ReturnType<ReturnType<typeof inspectionView>['actors']['get']>>;

/**
 * A machine the server runs as a region of another machine's actor (the task actor's `pluginUi`
 * and `action` regions): that region's value, live, labelled as its own actor would be.
 */
function regionActor(
  entry: CatalogEntry,
  latest: InspectionModel['latestByMachine']['value'],
  actors: ReturnType<typeof inspectionView>['actors'],
): ViewActor | undefined {
  if (!entry.regionOf) return undefined;
  const host = latest.get(entry.regionOf.machineId);
  const hostActor = host ? actors.get(host.actorId) : undefined;
  const value = (hostActor?.value as Record<string, unknown> | undefined)?.[entry.regionOf.region];
  if (!hostActor || value === undefined) return undefined;
  // The action slot's fields in the host's context summary (the action in flight, else the last one).
  const slot = hostActor.context as { actionName?: unknown; settled?: unknown } | undefined;
  const inFlight = value !== 'idle' ? 1 : 0;
  const label = actorLabel(
    {
      actorId: hostActor.actorId,
      machineId: entry.machineId,
      ...(typeof slot?.actionName === 'string' ? { context: { actionName: slot.actionName } } : {}),
    },
    (typeof slot?.settled === 'number' ? slot.settled : 0) + inFlight,
  );
  return { ...hostActor, label, value, context: undefined };
}

export function MachineView(props: {
  inspection: InspectionModel;
  catalog: readonly CatalogEntry[];
  stately: StatelyBridge;
  taskOpen: boolean;
}) {
  const { inspection, stately } = props;
  const entries = props.catalog;
  const latest = inspection.latestByMachine.value;
  const known = new Set(entries.map((e) => e.machineId));
  const others = inspection.actors.value.filter((a) => !a.machineId || !known.has(a.machineId));
  const status = stately.status.value;
  const [showInternal, setShowInternal] = useState(false);
  // Reading the model's signals re-renders on every record; the view is derived from them all.
  void inspection.events.value;
  const view = inspectionView(inspection.records(), { showInternal, offset: inspection.droppedRecords() });

  return (
    <section class="panel-section machines" aria-labelledby="machines-title" data-testid="machine-view">
      <div class="machines-head">
        <h2 id="machines-title">Live machines</h2>
        <button
          type="button"
          class="btn"
          disabled={!props.taskOpen || status === 'opening'}
          onClick={() =>
            status === 'closed' || status === 'blocked' || status === 'failed'
              ? void stately.open(inspection.records())
              : stately.close()
          }
        >
          {status === 'closed' || status === 'blocked' || status === 'failed'
            ? 'Open in Stately Inspector'
            : 'Close Stately Inspector'}
        </button>
      </div>
      {(statelyText[status] || stately.error.value) && (
        <p class={stately.error.value ? 'error-text small' : 'muted small'} role="status">
          {stately.error.value ?? statelyText[status]}
        </p>
      )}
      {!props.taskOpen && <p class="muted">Open a task to watch its machines.</p>}
      {entries.map((entry) => {
        const latestActor = latest.get(entry.machineId);
        const own = latestActor ? view.actors.get(latestActor.actorId) : undefined;
        const actor = own ?? regionActor(entry, latest, view.actors);
        return (
          <details
            class="machine"
            open
            key={entry.machineId}
            data-machine={entry.machineId}
            data-value={actor ? formatStateValue(actor.value) : ''}
          >
            <summary>
              <strong>{entry.title}</strong>{' '}
              <span class="muted small" data-testid="actor-label">
                {actor ? `${actor.label} · ${formatStateValue(actor.value)}` : 'not running'}
              </span>
            </summary>
            <Statechart node={entry.chart} active={actor ? activePaths(actor.value) : new Set()} />
            {actor?.context !== undefined && (
              <details class="payload">
                <summary>Context</summary>
                <pre>{JSON.stringify(actor.context, null, 1)}</pre>
              </details>
            )}
          </details>
        );
      })}
      {others.length > 0 && (
        <ul class="other-actors small">
          {others.map((a) => (
            <li key={a.actorId}>
              {view.actors.get(a.actorId)?.label ?? a.actorId}: {formatStateValue(a.value)}
            </li>
          ))}
        </ul>
      )}
      <h3>Timeline</h3>
      {view.timeline.length === 0 ? (
        <p class="muted small">No transitions yet.</p>
      ) : (
        <ol class="events small" data-testid="machine-timeline">
          {view.timeline.map((t) => (
            <li key={t.key}>
              {t.timestamp !== undefined && <time>{new Date(t.timestamp).toLocaleTimeString()}</time>}{' '}
              <span class="muted">{t.label}</span> {t.from} → <strong>{t.to}</strong>
              {t.eventType && <code class="muted"> on {t.eventType}</code>}
            </li>
          ))}
        </ol>
      )}
      <div class="machines-head">
        <h3>Recent events</h3>
        <label class="small">
          <input type="checkbox" checked={showInternal} onChange={(e) => setShowInternal(e.currentTarget.checked)} />{' '}
          Show internal xstate.* events{view.hiddenInternal > 0 ? ` (${view.hiddenInternal} hidden)` : ''}
        </label>
      </div>
      {view.events.length === 0 ? (
        <p class="muted small">No events yet.</p>
      ) : (
        <ol class="events small" data-testid="machine-events">
          {view.events.map((e) => {
            const line = (
              <>
                {e.timestamp !== undefined && <time>{new Date(e.timestamp).toLocaleTimeString()}</time>}{' '}
                <span class="muted">{e.label}</span> <code>{e.kind === 'actor' ? 'started' : e.eventType}</code>
              </>
            );
            return (
              <li key={e.key} data-internal={e.internal ? 'true' : undefined}>
                {e.payload ? (
                  <details class="payload">
                    <summary>{line}</summary>
                    <pre data-testid="event-payload">{JSON.stringify(e.payload, null, 1)}</pre>
                  </details>
                ) : (
                  line
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
