// withTimedWaits (action-waits.ts): the action actor's waits are armed from its committed
// snapshots through the provided `armDeadline`, never as an action of a step (no inspection
// event), once per wait entered, and `provide` keeps the timing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, initialTransition, transition, SimulatedClock, type InspectionEvent } from 'xstate';
import { actionMachine, type ActionInput } from '../action.machine.ts';

const waits = suite('action waits timed from the snapshot');

const input: ActionInput = {
  actionId: 'act-1',
  actionName: 'browser_click',
  params: { tabId: 1, clickId: 2 },
  taskId: 'task-1',
  clientId: 'plugin-1',
};

function armed() {
  const calls: Array<{ waitId: number; ms: number; committed: number | undefined }> = [];
  let actor: { getSnapshot(): { context: { waitId: number } } } | undefined;
  const machine = actionMachine.provide({
    actions: {
      sendFrame: () => {},
      // What the actor's committed snapshot says when the deadline is armed.
      armDeadline: (_, params) => void calls.push({ ...params, committed: actor?.getSnapshot().context.waitId }),
    },
  });
  const events: InspectionEvent[] = [];
  const a = createActor(machine, { clock: new SimulatedClock(), inspect: (e) => events.push(e) });
  actor = a;
  a.start();
  return { actor: a, calls, events };
}

waits('each wait entered is armed once, after its step is committed, with the wait of the snapshot', () => {
  const { actor, calls } = armed();
  actor.send({ type: 'START', action: input });
  actor.send({ type: 'ACK' });
  assert.equal(calls, [
    { waitId: 1, ms: 1_500, committed: 1 },
    { waitId: 2, ms: 5_000, committed: 2 },
  ]);
  actor.send({ type: 'RESULT', status: 'success', result: { clicked: true } });
  actor.send({ type: 'DEADLINE', waitId: 2 });
  assert.is(calls.length, 2, 'settling and a stale DEADLINE enter no wait');
});

waits('arming is no action of the step: no @xstate.action armDeadline in the inspection', () => {
  const { actor, events } = armed();
  actor.send({ type: 'START', action: input });
  actor.send({ type: 'ACK' });
  const actions = events
    .filter((e) => e.type === '@xstate.action')
    .map((e) => (e as { action: { type: string } }).action.type);
  assert.equal(actions, ['sendFrame']);
  assert.ok(
    events.some(
      (e) =>
        e.type === '@xstate.snapshot' &&
        (e.snapshot as unknown as { context: { waitMs: number } }).context.waitMs === 5_000,
    ),
    'the wait is in the snapshot the inspector sees',
  );
});

waits('the default times out on the actor clock; a second provide keeps the timing', () => {
  const clock = new SimulatedClock();
  const twice = actionMachine.provide({ actions: { sendFrame: () => {} } }).provide({ actions: {} });
  const actor = createActor(twice, { clock }).start();
  actor.send({ type: 'START', action: input });
  clock.increment(1_499);
  assert.is(actor.getSnapshot().value, 'awaitingAck');
  clock.increment(1);
  assert.is(actor.getSnapshot().context.last?.error?.code, 'PLUGIN_TIMEOUT_ACK');
});

waits('pure steps arm nothing', () => {
  let arms = 0;
  const machine = actionMachine.provide({ actions: { armDeadline: () => void arms++ } });
  const [idle] = initialTransition(machine);
  const [waiting] = transition(machine, idle, { type: 'START', action: input });
  assert.is(waiting.context.waitId, 1);
  assert.is(arms, 0);
});

waits.run();
