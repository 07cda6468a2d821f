// The live machine view's data: every inspected actor of the open task with its current state
// value, the recent events, and the records themselves (replayed into the Stately Inspector).
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { InspectionEvent, InspectionRecord } from '../../../transport/contracts/frontend-event.ts';
import { readRecord } from './inspection-record.ts';

export interface InspectedActor {
  actorId: string;
  machineId?: string;
  parentId?: string;
  value?: unknown;
  status?: string;
  lastEventType?: string;
  /** Server time of the last record about this actor. */
  updatedAt: number;
  /** Arrival order, to break timestamp ties. */
  order: number;
}

export interface InspectedEventEntry {
  key: string;
  actorId: string;
  machineId?: string;
  kind: 'actor' | 'event' | 'snapshot';
  eventType?: string;
  timestamp: number;
}

export interface InspectionModel {
  actors: ReadonlySignal<readonly InspectedActor[]>;
  /** Newest first, at most `maxEvents`. */
  events: ReadonlySignal<readonly InspectedEventEntry[]>;
  /** The most recently updated actor of each machine id. */
  latestByMachine: ReadonlySignal<ReadonlyMap<string, InspectedActor>>;
  apply(event: InspectionEvent): boolean;
  /** Every record applied so far (bounded), oldest first. */
  records(): readonly InspectionRecord[];
  /** How many old records were let go (so `records()[i]` is the record number `droppedRecords() + i`). */
  droppedRecords(): number;
  onRecord(listener: (record: InspectionRecord) => void): () => void;
  reset(): void;
}

export function createInspectionModel(options: { maxEvents?: number; maxRecords?: number } = {}): InspectionModel {
  const maxEvents = options.maxEvents ?? 40;
  const maxRecords = options.maxRecords ?? 500;
  const actorMap = signal<ReadonlyMap<string, InspectedActor>>(new Map());
  const events = signal<readonly InspectedEventEntry[]>([]);
  const listeners = new Set<(record: InspectionRecord) => void>();
  let seen = new Set<string>();
  let records: InspectionRecord[] = [];
  let dropped = 0;
  let order = 0;

  const actors = computed(() => [...actorMap.value.values()].sort((a, b) => a.order - b.order));
  const latestByMachine = computed(() => {
    const out = new Map<string, InspectedActor>();
    for (const actor of actorMap.value.values()) {
      if (!actor.machineId) continue;
      const best = out.get(actor.machineId);
      if (!best || actor.updatedAt > best.updatedAt || (actor.updatedAt === best.updatedAt && actor.order > best.order))
        out.set(actor.machineId, actor);
    }
    return out;
  });

  return {
    actors,
    events,
    latestByMachine,
    apply(event) {
      if (seen.has(event.id)) return false;
      seen.add(event.id);
      const fields = readRecord(event.record);
      const previous = actorMap.value.get(fields.actorId);
      const actor: InspectedActor = previous
        ? { ...previous }
        : { actorId: fields.actorId, updatedAt: event.timestamp, order: ++order };
      const machineId = fields.machineId ?? previous?.machineId;
      if (machineId) actor.machineId = machineId;
      if (fields.parentId) actor.parentId = fields.parentId;
      if (fields.hasValue) actor.value = fields.value;
      if (fields.status) actor.status = fields.status;
      if (fields.eventType && fields.kind === 'event') actor.lastEventType = fields.eventType;
      actor.updatedAt = Math.max(actor.updatedAt, event.timestamp);
      const next = new Map(actorMap.value);
      next.set(actor.actorId, actor);
      actorMap.value = next;

      if (fields.kind !== 'snapshot') {
        const entry: InspectedEventEntry = {
          key: event.id,
          actorId: fields.actorId,
          kind: fields.kind,
          timestamp: event.timestamp,
        };
        if (machineId) entry.machineId = machineId;
        if (fields.eventType) entry.eventType = fields.eventType;
        events.value = [entry, ...events.value].slice(0, maxEvents);
      }
      records.push(event.record);
      if (records.length > maxRecords) {
        dropped += records.length - maxRecords;
        records = records.slice(records.length - maxRecords);
      }
      listeners.forEach((l) => l(event.record));
      return true;
    },
    records: () => records,
    droppedRecords: () => dropped,
    onRecord(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reset() {
      seen = new Set();
      records = [];
      dropped = 0;
      actorMap.value = new Map();
      events.value = [];
    },
  };
}
