// Normalises XState inspection events into stable, reviewable records: actor refs
// become labels ("action", "task.turn" for a child by its id), volatile fields (session ids, root
// ids, actor objects, timestamps) are dropped, snapshots keep value/status and the
// context fields a reader needs to follow the story.
import type { ActorRefLike, AnyActorRef, InspectionEvent } from 'xstate';

export type InspectionRecord =
  | { type: '@xstate.actor'; actor: string }
  | { type: '@xstate.event'; source: string | null; target: string; event: string; detail?: string }
  | {
      type: '@xstate.snapshot';
      actor: string;
      event: string;
      value?: unknown;
      status: string;
      attempts?: number;
      /** The action actor: the wait it is in (its deadline is armed from this snapshot). */
      wait?: { waitId: number; ms: number };
      output?: unknown;
    }
  | { type: '@xstate.action'; actor: string; action: string; detail?: Record<string, unknown> };

/** The stable, telling part of a built-in action's params (timers, children). */
function actionDetail(type: string, params: unknown): Record<string, unknown> | undefined {
  const p = (params ?? {}) as Record<string, unknown>;
  switch (type) {
    case 'xstate.spawnChild':
      return { child: p.id, src: p.src, input: p.input };
    case 'xstate.stopChild':
      return { child: typeof p === 'object' ? (p as { id?: unknown }).id : p };
    case 'xstate.raise':
      return { event: (p.event as { type?: unknown } | undefined)?.type, delay: p.delay };
    case 'xstate.cancel':
      return { id: p.sendId };
    default:
      return params === undefined ? undefined : (JSON.parse(JSON.stringify(params)) as Record<string, unknown>);
  }
}

export function createInspectionRecorder(rootLabel: string) {
  const records: InspectionRecord[] = [];
  let root: ActorRefLike | undefined;
  const label = (ref: ActorRefLike | undefined): string | null => {
    if (!ref) return null;
    if (root === undefined) root = ref;
    if (ref === root) return rootLabel;
    return `${rootLabel}.${(ref as AnyActorRef).id}`;
  };
  const detailOf = (event: { type: string; status?: unknown }) =>
    event.type === 'RESULT' && typeof event.status === 'string' ? event.status : undefined;
  return {
    records,
    inspect(event: InspectionEvent): void {
      switch (event.type) {
        case '@xstate.actor':
          records.push({ type: event.type, actor: label(event.actorRef)! });
          break;
        case '@xstate.event': {
          const record: InspectionRecord = {
            type: event.type,
            source: label(event.sourceRef),
            target: label(event.actorRef)!,
            event: event.event.type,
          };
          const detail = detailOf(event.event as { type: string; status?: unknown });
          if (detail !== undefined) record.detail = detail;
          records.push(record);
          break;
        }
        case '@xstate.snapshot': {
          const snap = event.snapshot as {
            value?: unknown;
            status: string;
            context?: {
              attempts?: number;
              current?: { attempts?: number } | null;
              waitId?: number;
              waitMs?: number;
            };
            output?: unknown;
          };
          const record: InspectionRecord = {
            type: event.type,
            actor: label(event.actorRef)!,
            event: event.event.type,
            status: snap.status,
          };
          if (snap.value !== undefined) record.value = snap.value;
          if (typeof snap.context?.attempts === 'number') record.attempts = snap.context.attempts;
          // The action actor: the attempts of the action in flight.
          if (typeof snap.context?.current?.attempts === 'number') record.attempts = snap.context.current.attempts;
          if (snap.context?.current && typeof snap.context.waitId === 'number')
            record.wait = { waitId: snap.context.waitId, ms: snap.context.waitMs ?? 0 };
          if (snap.value !== undefined && snap.status === 'done') record.output = snap.output;
          records.push(record);
          break;
        }
        case '@xstate.action': {
          const record: InspectionRecord = {
            type: event.type,
            actor: label(event.actorRef)!,
            action: event.action.type,
          };
          const detail = actionDetail(event.action.type, event.action.params);
          if (detail !== undefined) record.detail = detail;
          records.push(record);
          break;
        }
        default:
          // microstep/transition records repeat what the snapshots show
          break;
      }
    },
  };
}
