// Generates paths with @xstate/graph and checks them against live actors: every
// shortest path (one per distinct state) is replayed on a fresh actor driven by a
// SimulatedClock and must land on the same value, status and context as the pure
// model; then every event of the alphabet is tried one step further from each of those
// states, live as well. With a coverage tracker attached, this takes every transition
// the alphabet can reach, with the event sequence that reaches it in the failure text.
import * as assert from 'uvu/assert';
import { getShortestPaths } from '@xstate/graph';
import {
  createActor,
  initialTransition,
  transition,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type SimulatedClock,
} from 'xstate';
import { playStep, settle, type Coverage, type DeferredActors } from './util.ts';

export interface LiveHarness {
  machine: AnyStateMachine;
  clock: SimulatedClock;
  deferred: DeferredActors;
}

export interface ExploreOptions {
  /** The pure model; must use the same delays as the live machine. */
  machine: AnyStateMachine;
  input: unknown;
  events: (snapshot: AnyMachineSnapshot) => AnyEventObject[];
  serializeState: (snapshot: AnyMachineSnapshot) => string;
  live: () => LiveHarness;
  coverage: Coverage;
}

export interface ExploreResult {
  /** Distinct states (as serialised) reached by the generated paths. */
  paths: number;
  /** Live replays run (paths, plus one extra event from each). */
  replays: number;
  /** State node ids reached by at least one generated path. */
  reachedStateIds: Set<string>;
}

const describe = (events: AnyEventObject[]) => events.map((e) => e.type).join(' > ') || '(initial)';

function observable(snapshot: AnyMachineSnapshot) {
  return { value: snapshot.value, status: snapshot.status, context: JSON.parse(JSON.stringify(snapshot.context)) };
}

async function replay(options: ExploreOptions, events: AnyEventObject[], expected: AnyMachineSnapshot): Promise<void> {
  const { machine, clock, deferred } = options.live();
  const actor = createActor(machine, { clock, input: options.input, inspect: options.coverage.inspect });
  actor.start();
  await settle();
  for (const event of events) await playStep(actor, machine, clock, deferred, event);
  assert.equal(observable(actor.getSnapshot()), observable(expected), `live replay of: ${describe(events)}`);
  actor.stop();
}

/**
 * A delayed event only makes sense while its state is active: the pure model ignores it
 * elsewhere, but a live clock would fire whatever timer is running instead.
 */
function applicable(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  if (!event.type.startsWith('xstate.after.')) return true;
  const stateId = event.type.split('.').slice(3).join('.');
  return snapshot._nodes.some((node) => node.id === stateId);
}

function pureFold(options: ExploreOptions, events: AnyEventObject[]): AnyMachineSnapshot {
  let [snapshot] = initialTransition(options.machine, options.input);
  for (const event of events) [snapshot] = transition(options.machine, snapshot, event);
  return snapshot;
}

export async function exploreGraph(options: ExploreOptions): Promise<ExploreResult> {
  const events = (snapshot: AnyMachineSnapshot) => options.events(snapshot).filter((e) => applicable(snapshot, e));
  const paths = getShortestPaths(options.machine, {
    input: options.input,
    events: events as never,
    serializeState: options.serializeState as never,
    limit: 20_000,
    // A live actor ignores events once done; the pure transition would not.
    stopWhen: (snapshot) => (snapshot as AnyMachineSnapshot).status !== 'active',
  });
  const reachedStateIds = new Set<string>();
  let replays = 0;
  for (const path of paths) {
    const state = path.state as AnyMachineSnapshot;
    if (state.status === 'error')
      assert.unreachable(`the model errors on: ${describe(path.steps.map((s) => s.event))}`);
    for (const node of state._nodes) reachedStateIds.add(node.id);
    const steps = path.steps.map((s) => s.event as AnyEventObject).filter((e) => e.type !== 'xstate.init');
    // The path's `state` stands for every state with the same serialisation; compare
    // the live actor with the pure model folded over exactly these steps instead.
    const expected = pureFold(options, steps);
    await replay(options, steps, expected);
    replays += 1;
    if (expected.status !== 'active') continue;
    for (const event of events(expected)) {
      const [next] = transition(options.machine, expected, event);
      if (next.status === 'error') continue;
      await replay(options, [...steps, event], next);
      replays += 1;
    }
  }
  return { paths: paths.length, replays, reachedStateIds };
}
