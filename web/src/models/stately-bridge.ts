// "Open in Stately Inspector": feeds the inspection records of the open task to the Stately
// Inspector through @statelyai/inspect's createBrowserInspector (inspector.actor / snapshot /
// event). The package is loaded on first use; the inspector lives on stately.ai, so the bridge
// reports whether its window opened and whether it answered (it needs internet access).
import { signal, type ReadonlySignal } from '@preact/signals';
import type { InspectionRecord } from '../../../transport/contracts/frontend-event.ts';
import { readRecord } from './inspection-record.ts';

export type StatelyStatus = 'closed' | 'opening' | 'waiting' | 'connected' | 'blocked' | 'unreachable' | 'failed';

/** The part of @statelyai/inspect's Inspector the bridge uses. */
export interface InspectorLike {
  actor(actor: string | object, snapshot?: object, info?: { parentId?: string }): void;
  snapshot(actor: string, snapshot: object, info?: { event?: { type: string } }): void;
  event(actor: string, event: { type: string }, info?: { source?: string }): void;
  stop(): void;
  adapter?: { targetWindow?: unknown };
}

export type CreateInspector = (options: { autoStart?: boolean }) => InspectorLike;

export interface MessageWindow {
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

export interface StatelyBridge {
  status: ReadonlySignal<StatelyStatus>;
  error: ReadonlySignal<string | null>;
  /** Opens the inspector window and replays `records`; later records go through `forward`. */
  open(records: readonly InspectionRecord[]): Promise<void>;
  forward(record: InspectionRecord): void;
  close(): void;
}

export interface StatelyBridgeDeps {
  load: () => Promise<CreateInspector>;
  window: MessageWindow;
  /** The machine config for a machine id (sent as the actor's definition). */
  definitionOf: (machineId: string) => unknown;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  connectTimeoutMs?: number;
}

const CONNECTED = '@statelyai.connected';

export function createStatelyBridge(deps: StatelyBridgeDeps): StatelyBridge {
  const status = signal<StatelyStatus>('closed');
  const error = signal<string | null>(null);
  let inspector: InspectorLike | null = null;
  let registered = new Set<string>();
  let machineOf = new Map<string, string>();
  let timer: unknown = null;

  const onMessage = (event: { data: unknown }) => {
    const data = event.data as { type?: unknown } | null;
    if (inspector && typeof data === 'object' && data !== null && data.type === CONNECTED) {
      status.value = 'connected';
      error.value = null;
    }
  };

  function register(actorId: string, machineId: string | undefined, snapshot: object, parentId?: string) {
    if (!inspector || registered.has(actorId)) return;
    registered.add(actorId);
    const definition = machineId ? deps.definitionOf(machineId) : undefined;
    // An ActorRef-like object: the inspector reads `sessionId` and `logic.config` from it.
    const ref = definition ? { sessionId: actorId, id: actorId, logic: { config: definition } } : actorId;
    inspector.actor(ref, snapshot, parentId ? { parentId } : {});
  }

  function forward(record: InspectionRecord) {
    if (!inspector) return;
    const f = readRecord(record);
    if (f.machineId) machineOf.set(f.actorId, f.machineId);
    const machineId = f.machineId ?? machineOf.get(f.actorId);
    const snapshot: Record<string, unknown> = { status: f.status ?? 'active' };
    if (f.hasValue) snapshot.value = f.value;
    if (f.context !== undefined) snapshot.context = f.context;
    if (f.kind === 'actor') return register(f.actorId, machineId, snapshot, f.parentId);
    register(f.actorId, machineId, snapshot, f.parentId);
    if (f.kind === 'snapshot') inspector.snapshot(f.actorId, snapshot, f.event ? { event: f.event } : {});
    else if (f.event) inspector.event(f.actorId, f.event, f.sourceId ? { source: f.sourceId } : {});
  }

  function close() {
    if (timer !== null) deps.clearTimeout(timer);
    timer = null;
    deps.window.removeEventListener('message', onMessage);
    inspector?.stop();
    inspector = null;
    registered = new Set();
    machineOf = new Map();
    status.value = 'closed';
  }

  return {
    status,
    error,
    async open(records) {
      if (status.value === 'opening' || status.value === 'waiting' || status.value === 'connected') return;
      close();
      status.value = 'opening';
      error.value = null;
      let create: CreateInspector;
      try {
        create = await deps.load();
      } catch (cause) {
        status.value = 'failed';
        error.value = `could not load @statelyai/inspect: ${cause instanceof Error ? cause.message : String(cause)}`;
        return;
      }
      deps.window.addEventListener('message', onMessage);
      inspector = create({ autoStart: true });
      if (inspector.adapter && !inspector.adapter.targetWindow) {
        close();
        status.value = 'blocked';
        error.value = 'the browser blocked the inspector window; allow pop-ups for this page and try again';
        return;
      }
      status.value = 'waiting';
      timer = deps.setTimeout(() => {
        timer = null;
        if (status.value === 'waiting') {
          status.value = 'unreachable';
          error.value =
            'the Stately Inspector did not answer (it is served from stately.ai and needs internet access); records keep queueing for it';
        }
      }, deps.connectTimeoutMs ?? 15_000);
      for (const record of records) forward(record);
    },
    forward,
    close,
  };
}
