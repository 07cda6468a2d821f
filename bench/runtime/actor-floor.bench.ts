// The floor XState puts under one browser action (issue 14 item 6): CPU per action of the action
// actor's life (start, frame written, ACK, RESULT, final), with no transport, store or runtime,
// measured side by side in one process:
//   - bare: actionMachine as its own actor, no inspection;
//   - in the task tree: the same machine as the child of a running taskMachine (ACTION_REQUESTED,
//     spawn, done event, actionSettled), the path the runtime takes, with no inspection;
//   - inspected: the task tree with an inspection observer that drops every event.
// Reference: a plain function that keeps the same bookkeeping (in flight -> acked -> settled,
// output object) without an actor.
//
//   node --import tsx bench/runtime/actor-floor.bench.ts
import { createActor, fromPromise, type InspectionEvent } from 'xstate';
import { actionMachine, taskMachine, type ActionInput, type ActionOutput, type TurnInput } from '../../machines/index.ts';

export interface ActorFloorFigures {
  actions: number;
  referenceMicros: number;
  bareMicros: number;
  treeMicros: number;
  inspectedMicros: number;
}

const inputOf = (i: number): ActionInput => ({ actionId: `act-${i}`, actionName: 'browser_click', params: { tabId: 1, clickId: 1 }, taskId: 'task-1', clientId: 'plugin-1' });

function cpuMicrosPer(n: number, run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

function bare(n: number): number {
  const logic = actionMachine.provide({ actions: { sendFrame: () => {} } });
  return cpuMicrosPer(n, () => {
    for (let i = 0; i < n; i++) {
      const actor = createActor(logic, { input: inputOf(i) }).start();
      actor.send({ type: 'ACK' });
      actor.send({ type: 'RESULT', status: 'success', result: { clicked: true } });
      if (actor.getSnapshot().status !== 'done') throw new Error('the action did not settle');
    }
  });
}

function tree(n: number, inspect?: (event: InspectionEvent) => void): number {
  let settled = 0;
  let live: { send(event: unknown): void } | undefined;
  const logic = taskMachine.provide({
    actors: {
      runTurn: fromPromise<unknown, TurnInput>(() => new Promise(() => {})),
      runAction: actionMachine.provide({ actions: { announce: ({ self }) => void (live = self), sendFrame: () => {} } }),
    },
    actions: { actionSettled: () => void settled++ },
  });
  const task = createActor(logic, { input: { taskId: 'task-1' }, ...(inspect ? { inspect } : {}) }).start();
  task.send({ type: 'USER_MESSAGE', message: { id: 'm1', content: 'go' } } as never);
  const micros = cpuMicrosPer(n, () => {
    for (let i = 0; i < n; i++) {
      task.send({ type: 'ACTION_REQUESTED', action: inputOf(i) });
      live!.send({ type: 'ACK' });
      live!.send({ type: 'RESULT', status: 'success', result: { clicked: true } });
    }
  });
  if (settled !== n) throw new Error(`${settled} of ${n} actions settled`);
  task.stop();
  return micros;
}

function reference(n: number): number {
  const inFlight = new Map<string, { input: ActionInput; acked: boolean; attempts: number }>();
  let settled = 0;
  return cpuMicrosPer(n, () => {
    for (let i = 0; i < n; i++) {
      const input = inputOf(i);
      inFlight.set(input.actionId, { input, acked: false, attempts: 1 });
      inFlight.get(input.actionId)!.acked = true;
      const entry = inFlight.get(input.actionId)!;
      inFlight.delete(input.actionId);
      const output: ActionOutput = { actionId: input.actionId, actionName: input.actionName, status: 'succeeded', result: { clicked: true }, attempts: entry.attempts, execTimeoutStreak: 0, answered: true };
      if (output.status === 'succeeded') settled++;
    }
    if (settled !== n) throw new Error('reference lost an action');
  });
}

export function benchActorFloor(actions = 20_000): ActorFloorFigures {
  // Warm-up, then the measured runs in turn.
  bare(2_000);
  tree(2_000);
  tree(2_000, () => {});
  reference(2_000);
  return { actions, referenceMicros: reference(actions), bareMicros: bare(actions), treeMicros: tree(actions), inspectedMicros: tree(actions, () => {}) };
}

export function printActorFloor(r: ActorFloorFigures): void {
  console.log(`actor floor: CPU per action of XState alone (${r.actions} actions, no transport, store or runtime)`);
  console.log(`  reference (plain bookkeeping): ${r.referenceMicros.toFixed(2)} µs`);
  console.log(`  actionMachine on its own: ${r.bareMicros.toFixed(1)} µs; as a child of the task actor: ${r.treeMicros.toFixed(1)} µs; inspected: ${r.inspectedMicros.toFixed(1)} µs`);
}

if (import.meta.url === `file://${process.argv[1]}`) printActorFloor(benchActorFloor());
