import type { InspectionModel } from '../models/inspection-model.ts';
import type { CatalogEntry } from '../models/machine-catalog.ts';
import { activePaths, formatStateValue } from '../models/machine-chart.ts';
import type { StatelyBridge } from '../models/stately-bridge.ts';
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

  return (
    <section class="panel-section machines" aria-labelledby="machines-title" data-testid="machine-view">
      <div class="machines-head">
        <h2 id="machines-title">Live machines</h2>
        <button
          type="button"
          class="btn"
          disabled={!props.taskOpen || status === 'opening'}
          onClick={() => (status === 'closed' || status === 'blocked' || status === 'failed' ? void stately.open(inspection.records()) : stately.close())}
        >
          {status === 'closed' || status === 'blocked' || status === 'failed' ? 'Open in Stately Inspector' : 'Close Stately Inspector'}
        </button>
      </div>
      {(statelyText[status] || stately.error.value) && (
        <p class={stately.error.value ? 'error-text small' : 'muted small'} role="status">
          {stately.error.value ?? statelyText[status]}
        </p>
      )}
      {!props.taskOpen && <p class="muted">Open a task to watch its machines.</p>}
      {entries.map((entry) => {
        const actor = latest.get(entry.machineId);
        return (
          <details class="machine" open key={entry.machineId} data-machine={entry.machineId} data-value={actor ? formatStateValue(actor.value) : ''}>
            <summary>
              <strong>{entry.title}</strong>{' '}
              <span class="muted small">{actor ? `${actor.actorId} · ${formatStateValue(actor.value)}` : 'not running'}</span>
            </summary>
            <Statechart node={entry.chart} active={actor ? activePaths(actor.value) : new Set()} />
          </details>
        );
      })}
      {others.length > 0 && (
        <ul class="other-actors small">
          {others.map((a) => (
            <li key={a.actorId}>
              {a.machineId ?? 'actor'} {a.actorId}: {formatStateValue(a.value)}
            </li>
          ))}
        </ul>
      )}
      <h3>Recent events</h3>
      {inspection.events.value.length === 0 ? (
        <p class="muted small">No events yet.</p>
      ) : (
        <ol class="events small" data-testid="machine-events">
          {inspection.events.value.map((e) => (
            <li key={e.key}>
              <time>{new Date(e.timestamp).toLocaleTimeString()}</time> <span class="muted">{e.machineId ?? e.actorId}</span>{' '}
              <code>{e.kind === 'actor' ? 'started' : e.eventType}</code>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
