// The floor XState puts under one browser action: CPU per action of the action actor's life
// (start, frame written, ACK, RESULT, final), with no transport, store or runtime, measured side
// by side in one process, in repeated rounds with the variants interleaved (the order rotates
// each round; medians are reported):
//   - bare: one actionMachine actor running the actions one after another, no inspection;
//   - in the task tree: the same action slot run by the task actor as its `action` region
//     (ACTION_REQUESTED, ACK, RESULT, actionSettled), the path the runtime takes, no inspection;
//   - inspected: the task tree with the runtime's real inspection hub (runtime/agent/
//     inspection-hub.ts, with a redactor as app.ts gives it), nobody subscribed;
//   (the plugin-UI mirror is a region of the task machine: it is in every tree variant.)
// Reference: plain bookkeeping of the same facts (in flight -> acked -> settled, output object),
// arming and clearing the same two timers (T_ack, T_exec) per action on the same clock.
// The inspection events per action (every event the hub's observer receives) are counted too.
//
//   node --import tsx bench/runtime/actor-floor.bench.ts        (MIMO_BENCH_ROUNDS, default 5)
import { createActor, fromPromise, type InspectionEvent } from 'xstate';
import {
  actionMachine,
  defaultAckTimeoutMs,
  execTimeoutFor,
  taskMachine,
  type ActionInput,
  type ActionOutput,
  type TurnInput,
} from '../../machines/index.ts';
import { createInspectionHub } from '../../runtime/agent/inspection-hub.ts';
import { createSystemClock } from '../../runtime/clock/index.ts';
import { createDeadlineTimer } from '../../runtime/scheduler/deadline-timer.ts';
import { createSecretRegistry, redactDeep } from '../../runtime/redaction/redact.ts';

export interface ActorFloorFigures {
  actions: number;
  rounds: number;
  referenceMicros: number;
  bareMicros: number;
  treeMicros: number;
  inspectedMicros: number;
  /** Inspection events per action of the inspected tree. */
  inspectedEvents: number;
}

const clock = createSystemClock();
const inputOf = (i: number): ActionInput => ({
  actionId: `act-${i}`,
  actionName: 'browser_click',
  params: { tabId: 1, clickId: 1 },
  taskId: 'task-1',
  clientId: 'plugin-1',
});

function cpuMicrosPer(n: number, run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

/** actionMachine as the runtime provides it: deadlines on one timer per actor (deadline-timer.ts). */
function actionLogic(
  onFrame: (self: { send(event: unknown): void }, input: { attempt: number; actionId: string }) => void = () => {},
) {
  const deadlines = createDeadlineTimer(clock);
  return actionMachine.provide({
    actions: {
      sendFrame: ({ self }, input) => onFrame(self, input),
      armDeadline: ({ self }, { waitId, ms }) => deadlines.arm(self, waitId, ms),
    },
  });
}

function bare(n: number): number {
  const actor = createActor(actionLogic(), { clock }).start();
  const micros = cpuMicrosPer(n, () => {
    for (let i = 0; i < n; i++) {
      actor.send({ type: 'START', action: inputOf(i) });
      actor.send({ type: 'ACK' });
      actor.send({ type: 'RESULT', status: 'success', result: { clicked: true } });
      if (actor.getSnapshot().context.settled !== i + 1) throw new Error('the action did not settle');
    }
  });
  actor.stop();
  return micros;
}

/** The real hub as app.ts builds it (a redactor over a secret registry), counting what its observers receive. */
function realHub() {
  const secrets = createSecretRegistry();
  const hub = createInspectionHub({
    clock,
    redact: <T>(value: T) => redactDeep(value, { secrets, maxDepth: 64 }) as T,
  });
  let events = 0;
  const observe = hub.observerFor('task-1');
  return {
    inspect: (event: InspectionEvent) => {
      events++;
      observe(event);
    },
    events: () => events,
  };
}

function tree(n: number, options: { inspect?: (event: InspectionEvent) => void } = {}): number {
  let settled = 0;
  const deadlines = createDeadlineTimer(clock);
  const logic = taskMachine.provide({
    actors: { runTurn: fromPromise<unknown, TurnInput>(() => new Promise(() => {})) },
    actions: {
      // The task actor runs its actions in its `action` region: frames are no-ops here, deadlines
      // on one timer per actor as the runtime arms them.
      sendFrame: () => {},
      armDeadline: ({ self }, { waitId, ms }) => deadlines.arm(self, waitId, ms),
      actionSettled: () => {
        settled++;
      },
    },
  });
  const task = createActor(logic, {
    input: { taskId: 'task-1' },
    clock,
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
  task.start();
  task.send({ type: 'USER_MESSAGE', message: { id: 'm1', content: 'go' } } as never);
  const micros = cpuMicrosPer(n, () => {
    for (let i = 0; i < n; i++) {
      const actionId = `act-${i}`;
      task.send({ type: 'ACTION_REQUESTED', action: inputOf(i) });
      task.send({ type: 'ACK', actionId });
      task.send({ type: 'RESULT', actionId, status: 'success', result: { clicked: true } });
    }
  });
  if (settled !== n) throw new Error(`${settled} of ${n} actions settled`);
  task.stop();
  return micros;
}

function reference(n: number): number {
  const inFlight = new Map<string, { input: ActionInput; acked: boolean; attempts: number; timer: unknown }>();
  let settled = 0;
  const never = () => {
    throw new Error('a reference timer fired');
  };
  return cpuMicrosPer(n, () => {
    for (let i = 0; i < n; i++) {
      const input = inputOf(i);
      inFlight.set(input.actionId, {
        input,
        acked: false,
        attempts: 1,
        timer: clock.setTimeout(never, defaultAckTimeoutMs),
      });
      const acked = inFlight.get(input.actionId)!;
      acked.acked = true;
      clock.clearTimeout(acked.timer);
      acked.timer = clock.setTimeout(never, execTimeoutFor(input.actionName));
      const entry = inFlight.get(input.actionId)!;
      clock.clearTimeout(entry.timer);
      inFlight.delete(input.actionId);
      const output: ActionOutput = {
        actionId: input.actionId,
        actionName: input.actionName,
        status: 'succeeded',
        result: { clicked: true },
        attempts: entry.attempts,
        execTimeoutStreak: 0,
        answered: true,
      };
      if (output.status === 'succeeded') settled++;
    }
    if (settled !== n) throw new Error('reference lost an action');
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export function benchActorFloor(
  actions = 10_000,
  rounds = Number(process.env.MIMO_BENCH_ROUNDS ?? 5),
): ActorFloorFigures {
  let inspectedEvents = 0;
  const variants: Array<[string, (n: number) => number]> = [
    ['reference', reference],
    ['bare', bare],
    ['tree', (n) => tree(n)],
    [
      'inspected',
      (n) => {
        const hub = realHub();
        const micros = tree(n, { inspect: hub.inspect });
        inspectedEvents = hub.events() / n;
        return micros;
      },
    ],
  ];
  for (const [, run] of variants) run(1_000); // warm-up
  const results = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < variants.length; k++) {
      const [name, run] = variants[(k + round) % variants.length]!;
      results.get(name)!.push(run(actions));
    }
  }
  const m = (name: string) => median(results.get(name)!);
  return {
    actions,
    rounds,
    referenceMicros: m('reference'),
    bareMicros: m('bare'),
    treeMicros: m('tree'),
    inspectedMicros: m('inspected'),
    inspectedEvents,
  };
}

export function printActorFloor(r: ActorFloorFigures): void {
  console.log(
    `actor floor: CPU per action of XState alone (${r.actions} actions x ${r.rounds} interleaved rounds, medians; no transport, store or runtime)`,
  );
  console.log(`  reference (plain bookkeeping, two timers armed and cleared): ${r.referenceMicros.toFixed(2)} µs`);
  console.log(
    `  actionMachine on its own: ${r.bareMicros.toFixed(1)} µs; as the task actor's action region: ${r.treeMicros.toFixed(1)} µs`,
  );
  console.log(
    `  inspected by the real hub: ${r.inspectedMicros.toFixed(1)} µs (${r.inspectedEvents.toFixed(1)} inspection events per action)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) printActorFloor(benchActorFloor());
