// Shared helpers for the machine tests: controllable promise actors, a coverage tracker
// fed by XState's inspection stream, a JSON round trip, and a live replay of
// @xstate/graph paths on an actor driven by a SimulatedClock.
import {
  fromPromise,
  type ActorRefLike,
  type AnyActorRef,
  type AnyEventObject,
  type AnyStateMachine,
  type InspectionEvent,
  type SimulatedClock,
  type StateValue,
} from 'xstate';

/** Lets pending promise callbacks (actor done/error relays) run. Not a timer wait. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A JSON round trip, as a persisted snapshot goes through a store. */
export function roundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

interface Pending {
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Promise actors whose outcome the test decides, keyed by the actor's id (the invoke or
 * spawn id). `calls` lists every start with its input; `aborted` the ids whose
 * AbortSignal fired (the state that owned them was left or the machine stopped).
 */
export function createDeferredActors() {
  const pending = new Map<string, Pending>();
  const calls: Array<{ id: string; input: unknown }> = [];
  const aborted: string[] = [];
  return {
    calls,
    aborted,
    logic<TOutput = unknown, TInput = unknown>() {
      return fromPromise<TOutput, TInput>(({ input, self, signal }) => {
        calls.push({ id: self.id, input });
        signal.addEventListener('abort', () => aborted.push(self.id));
        return new Promise<TOutput>((resolve, reject) => {
          pending.set(self.id, { input, resolve: resolve as (v: unknown) => void, reject });
        });
      });
    },
    isPending(id: string): boolean {
      return pending.has(id);
    },
    resolve(id: string, value?: unknown): void {
      const entry = pending.get(id);
      if (!entry) throw new Error(`no pending actor "${id}" (pending: ${[...pending.keys()].join(', ')})`);
      pending.delete(id);
      entry.resolve(value);
    },
    reject(id: string, error: unknown): void {
      const entry = pending.get(id);
      if (!entry) throw new Error(`no pending actor "${id}" (pending: ${[...pending.keys()].join(', ')})`);
      pending.delete(id);
      entry.reject(error);
    },
  };
}

export type DeferredActors = ReturnType<typeof createDeferredActors>;

type Node = AnyStateMachine['root'];
type TransitionDef = { source: Node; eventType: string; target?: readonly Node[] | undefined };

function allNodes(machine: AnyStateMachine): Node[] {
  const out: Node[] = [];
  const walk = (node: Node) => {
    out.push(node);
    for (const child of Object.values(node.states) as Node[]) walk(child);
  };
  walk(machine.root);
  return out;
}

function transitionKey(def: TransitionDef): string {
  const list = (def.eventType ? def.source.transitions.get(def.eventType) : def.source.always) ?? [];
  const index = (list as readonly unknown[]).indexOf(def);
  const targets = (def.target ?? []).map((t) => t.id).join(',') || '(self)';
  return `${def.source.id} --${def.eventType || 'always'}#${index}--> ${targets}`;
}

/** State node ids active in a snapshot value, e.g. { a: 'b' } -> ['m', 'm.a', 'm.a.b']. */
export function activeStateIds(machineId: string, value: StateValue): string[] {
  const ids = [machineId];
  const walk = (prefix: string, v: StateValue) => {
    if (typeof v === 'string') {
      ids.push(`${prefix}.${v}`);
      return;
    }
    for (const [key, sub] of Object.entries(v)) {
      ids.push(`${prefix}.${key}`);
      if (sub !== undefined) walk(`${prefix}.${key}`, sub as StateValue);
    }
  };
  walk(machineId, value);
  return ids;
}

/**
 * Records, from the inspection stream of any number of actors of `machine` (or of
 * machines made from it with .provide()), which state nodes were active and which
 * transition definitions were taken.
 */
export function createCoverage(machine: AnyStateMachine) {
  const states = new Set<string>();
  const transitions = new Set<string>();
  const allStates = allNodes(machine).map((n) => n.id);
  const allTransitions: string[] = [];
  for (const node of allNodes(machine)) {
    for (const defs of node.transitions.values()) for (const def of defs) allTransitions.push(transitionKey(def));
    for (const def of node.always ?? []) allTransitions.push(transitionKey(def));
  }
  const isOurs = (ref: ActorRefLike) => (ref as { logic?: AnyStateMachine }).logic?.id === machine.id;
  return {
    inspect(event: InspectionEvent): void {
      if (!isOurs(event.actorRef)) return;
      if (event.type === '@xstate.snapshot' || event.type === '@xstate.microstep') {
        const value = (event.snapshot as { value?: StateValue }).value;
        if (value !== undefined) for (const id of activeStateIds(machine.id, value)) states.add(id);
      }
      if (event.type === '@xstate.microstep') {
        for (const def of event._transitions) transitions.add(transitionKey(def as TransitionDef));
      }
    },
    missingStates: () => allStates.filter((id) => !states.has(id)),
    missingTransitions: () => allTransitions.filter((key) => !transitions.has(key)),
    counts: () => ({ states: allStates.length, transitions: allTransitions.length }),
  };
}

export type Coverage = ReturnType<typeof createCoverage>;

/**
 * Plays one graph step on a live actor: done/error events of invoked or spawned
 * actors resolve/reject the deferred actor with that id; `xstate.after.<DELAY>...`
 * advances the simulated clock by the delay evaluated on the live context; anything
 * else is sent as is.
 */
export async function playStep(
  actor: AnyActorRef,
  machine: AnyStateMachine,
  clock: SimulatedClock,
  deferred: DeferredActors,
  event: AnyEventObject,
): Promise<void> {
  const type = event.type;
  if (type.startsWith('xstate.done.actor.')) {
    deferred.resolve(type.slice('xstate.done.actor.'.length), event.output);
  } else if (type.startsWith('xstate.error.actor.')) {
    deferred.reject(type.slice('xstate.error.actor.'.length), event.error);
  } else if (type.startsWith('xstate.after.')) {
    const delayName = type.split('.')[2]!;
    const delay = (machine.implementations.delays as Record<string, unknown>)[delayName];
    const context = actor.getSnapshot().context;
    const ms = typeof delay === 'function' ? (delay as (a: unknown) => number)({ context, event }) : Number(delay);
    clock.increment(ms);
  } else if (type === 'DEADLINE') {
    // The action machine's deadline (armed on entering the wait): the clock reaches it.
    clock.increment(actor.getSnapshot().context.waitMs);
  } else {
    actor.send(event);
  }
  await settle();
}
