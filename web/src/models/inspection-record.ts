// Reads the fields the UI needs from an `inspection` record (a serialised XState inspection
// event). The contract fixes type, actorId and machineId; the rest is read defensively.
import type { InspectionRecord } from '../../../transport/contracts/frontend-event.ts';

export interface RecordFields {
  kind: 'actor' | 'snapshot' | 'event';
  actorId: string;
  machineId?: string;
  parentId?: string;
  sourceId?: string;
  /** The actor's own id (`task:01M8…`), when the record names it. */
  name?: string;
  /** Snapshot value (`'created'`, `{ running: 'active' }`), when the record has one. */
  value?: unknown;
  hasValue: boolean;
  status?: string;
  context?: unknown;
  eventType?: string;
  event?: { type: string } & Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function readRecord(record: InspectionRecord): RecordFields {
  const r = record as Record<string, unknown>;
  const snapshot = isRecord(r.snapshot) ? r.snapshot : undefined;
  const hasValue = snapshot ? 'value' in snapshot : 'value' in r;
  const eventObject =
    isRecord(r.event) && typeof r.event.type === 'string'
      ? (r.event as { type: string } & Record<string, unknown>)
      : undefined;
  const eventType = eventObject?.type ?? str(r.eventType);
  const fields: RecordFields = {
    kind: record.type === '@xstate.actor' ? 'actor' : record.type === '@xstate.snapshot' ? 'snapshot' : 'event',
    actorId: record.actorId,
    hasValue,
  };
  const machineId = str(record.machineId);
  if (machineId) fields.machineId = machineId;
  const parentId = str(r.parentId);
  if (parentId) fields.parentId = parentId;
  const name = str(r.name);
  if (name) fields.name = name;
  const sourceId = str(r.sourceId);
  if (sourceId) fields.sourceId = sourceId;
  if (hasValue) fields.value = snapshot ? snapshot.value : r.value;
  const status = str(snapshot?.status ?? r.status);
  if (status) fields.status = status;
  if (snapshot && 'context' in snapshot) fields.context = snapshot.context;
  else if (isRecord(r.context)) fields.context = r.context;
  if (eventType) {
    fields.eventType = eventType;
    fields.event = eventObject ?? { type: eventType };
  }
  return fields;
}
