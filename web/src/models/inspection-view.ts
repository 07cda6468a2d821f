// What the Machines tab shows, derived from the inspection records (loaded with the machine view,
// not on first page load): readable actor names, each actor's latest context, the recent events
// with their (server-redacted) payloads, XState's internal `xstate.*` events hidden unless asked,
// and a timeline of state changes.
import type { InspectionRecord } from '../../../transport/contracts/frontend-event.ts';
import { actorLabel, isInternalEvent } from './actor-label.ts';
import { readRecord } from './inspection-record.ts';
import { formatStateValue } from './machine-chart.ts';

export interface ActorView {
  actorId: string;
  machineId?: string;
  label: string;
  value?: unknown;
  context?: unknown;
}

export interface EventView {
  key: string;
  label: string;
  kind: 'actor' | 'event';
  eventType?: string;
  internal: boolean;
  payload?: Record<string, unknown>;
  timestamp?: number;
}

export interface TransitionView {
  key: string;
  label: string;
  from: string;
  to: string;
  eventType?: string;
  timestamp?: number;
}

export interface InspectionView {
  actors: Map<string, ActorView>;
  /** Newest first. */
  events: EventView[];
  hiddenInternal: number;
  /** Newest first. */
  timeline: TransitionView[];
}

const timeOf = (record: InspectionRecord) => {
  const t = (record as { timestamp?: unknown }).timestamp;
  return typeof t === 'number' ? t : undefined;
};

/** `offset`: the number of the first record (keys stay stable as old records are let go). */
export function inspectionView(
  records: readonly InspectionRecord[],
  options: { showInternal: boolean; limit?: number; offset?: number },
): InspectionView {
  const limit = options.limit ?? 40;
  const offset = options.offset ?? 0;
  const actors = new Map<string, ActorView & { index: number; name?: string }>();
  const perMachine = new Map<string, number>();
  const events: EventView[] = [];
  const timeline: TransitionView[] = [];
  let hiddenInternal = 0;
  records.forEach((record, index) => {
    const i = offset + index;
    const f = readRecord(record);
    let actor = actors.get(f.actorId);
    const machineId = f.machineId ?? actor?.machineId;
    if (!actor) {
      const index = (perMachine.get(machineId ?? '') ?? 0) + 1;
      perMachine.set(machineId ?? '', index);
      actor = { actorId: f.actorId, label: '', index };
      actors.set(f.actorId, actor);
    }
    if (machineId) actor.machineId = machineId;
    if (f.name) actor.name = f.name;
    if (f.context !== undefined) actor.context = f.context;
    actor.label = actorLabel(
      {
        actorId: actor.actorId,
        ...(machineId ? { machineId } : {}),
        ...(actor.name ? { name: actor.name } : {}),
        ...(actor.context !== undefined ? { context: actor.context } : {}),
      },
      actor.index,
    );
    const at = timeOf(record);
    if (f.hasValue) {
      const before = actor.value;
      actor.value = f.value;
      const from = formatStateValue(before);
      const to = formatStateValue(f.value);
      if (f.kind === 'snapshot' && before !== undefined && from !== to) {
        timeline.unshift({
          key: `t${i}`,
          label: actor.label,
          from,
          to,
          ...(f.eventType ? { eventType: f.eventType } : {}),
          ...(at !== undefined ? { timestamp: at } : {}),
        });
      }
    }
    if (f.kind === 'snapshot') return;
    const internal = isInternalEvent(f.eventType);
    if (internal && !options.showInternal) {
      hiddenInternal += 1;
      return;
    }
    const view: EventView = {
      key: `e${i}`,
      label: actor.label,
      kind: f.kind,
      internal,
      ...(f.eventType ? { eventType: f.eventType } : {}),
      ...(at !== undefined ? { timestamp: at } : {}),
    };
    if (f.event) {
      const { type: _type, ...payload } = f.event;
      if (Object.keys(payload).length > 0) view.payload = payload;
    }
    events.unshift(view);
  });
  return { actors, events: events.slice(0, limit), hiddenInternal, timeline: timeline.slice(0, limit) };
}
