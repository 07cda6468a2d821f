// actionMachine as pure steps (initialTransition / transition): the frame written when an action
// starts, its deadlines armed (never canceled), settling back to idle with the parent told, the
// next action in the same actor, and events it does not know.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { initialTransition, transition } from 'xstate';
import { actionMachine, type ActionInput } from '../action.machine.ts';

const pure = suite('actionMachine pure steps (initialTransition / transition)');

const pureInput: ActionInput = {
  actionId: 'act-9',
  actionName: 'browser_click',
  params: { tabId: 5, clickId: 3 },
  taskId: 'task-1',
  clientId: 'plugin-abc',
};

const started = () => {
  const [idle] = initialTransition(actionMachine);
  return transition(actionMachine, idle, { type: 'START', action: pureInput });
};
/** The wait a step entered, from its snapshot (its deadline is armed from there, action-waits.ts); none while idle. */
const waitOf = (snapshot: { context: { current: unknown; waitId: number; waitMs: number } }) =>
  snapshot.context.current === null ? null : { waitId: snapshot.context.waitId, ms: snapshot.context.waitMs };
/** Arming is no action of the step (no inspection event of its own). */
const noArmingAction = (actions: Array<{ type: string }>) =>
  assert.not.ok(
    actions.some((a) => a.type === 'armDeadline'),
    'no armDeadline action',
  );

pure('idle at first; START runs sendFrame with the frame for attempt 1, arms T_ack and waits in awaitingAck', () => {
  const [idle, initial] = initialTransition(actionMachine);
  assert.is(idle.value, 'idle');
  assert.is(idle.context.current, null);
  assert.is(waitOf(idle), null, 'nothing is timed while idle');
  noArmingAction(initial);
  const [snapshot, actions] = started();
  assert.is(snapshot.value, 'awaitingAck');
  assert.is(snapshot.context.current?.attempts, 1);
  assert.is(snapshot.context.current?.execTimeoutMs, 5_000);
  assert.equal(
    actions.filter((a) => a.type === 'sendFrame').map((a) => a.params),
    [
      {
        actionId: 'act-9',
        dispatchId: 'act-9',
        actionName: 'browser_click',
        params: { tabId: 5, clickId: 3 },
        taskId: 'task-1',
        clientId: 'plugin-abc',
        attempt: 1,
        execTimeoutMs: 5_000,
      },
    ],
  );
  assert.not.ok(
    actions.some((a) => a.type === 'xstate.spawnChild'),
    'no child actor per action',
  );
  assert.equal(Object.keys(snapshot.children), []);
  assert.equal(waitOf(snapshot), { waitId: 1, ms: 1_500 });
  noArmingAction(actions);
  assert.not.ok(
    actions.some((a) => a.type === 'xstate.raise' || (a.type as string) === 'xstate.cancel'),
    'no XState timers',
  );
});

pure('DISPATCH_FAILED settles at once: idle, the output kept as last; nothing canceled', () => {
  const [s0] = started();
  const [s1, a1] = transition(actionMachine, s0, {
    type: 'DISPATCH_FAILED',
    error: { code: 'PLUGIN_OFFLINE', message: 'gone' },
  });
  assert.is(s1.value, 'idle');
  assert.is(s1.context.current, null);
  assert.equal(s1.context.last?.error, { code: 'PLUGIN_OFFLINE', message: 'gone', retryable: true });
  assert.is(s1.context.settled, 1);
  assert.not.ok(
    a1.some((a) => (a.type as string) === 'xstate.cancel'),
    'no timer to cancel',
  );
});

pure(
  'ACK arms the exec deadline with the table value; RESULT settles with an output; a DEADLINE of an older wait is ignored',
  () => {
    const [s0] = started();
    const [s1, a1] = transition(actionMachine, s0, { type: 'ACK' });
    assert.is(s1.value, 'executing');
    assert.equal(waitOf(s1), { waitId: 2, ms: 5_000 });
    noArmingAction(a1);
    const [stale] = transition(actionMachine, s1, { type: 'DEADLINE', waitId: 1 });
    assert.is(stale.value, 'executing', 'the T_ack deadline is stale once acked');
    const [s2] = transition(actionMachine, s1, { type: 'RESULT', status: 'success', result: { clicked: true } });
    assert.is(s2.value, 'idle');
    assert.equal(s2.context.last?.status, 'succeeded');
    assert.equal(s2.context.last?.result, { clicked: true });
    const [s3] = transition(actionMachine, s2, { type: 'DEADLINE', waitId: 2 });
    assert.is(s3.value, 'idle', 'a deadline after the action settled changes nothing');
    const [s4, a4] = transition(actionMachine, s3, { type: 'START', action: { ...pureInput, actionId: 'act-10' } });
    assert.is(s4.value, 'awaitingAck', 'the same actor runs the next action');
    assert.is(s4.context.current?.actionId, 'act-10');
    assert.equal(waitOf(s4), { waitId: 3, ms: 1_500 });
    noArmingAction(a4);
  },
);

pure('events for another action than the one in flight change nothing', () => {
  const [s0] = started();
  const [s1] = transition(actionMachine, s0, { type: 'ACK', actionId: 'act-other' });
  assert.is(s1.value, 'awaitingAck');
  const [s2] = transition(actionMachine, s0, { type: 'RESULT', actionId: 'act-other', status: 'success' });
  assert.is(s2.value, 'awaitingAck');
  assert.equal(s2.context.current, s0.context.current);
});

pure('unknown events change nothing', () => {
  const [s0] = started();
  const [s1] = transition(actionMachine, s0, { type: 'NOPE' } as never);
  assert.equal(s1.value, s0.value);
  assert.equal(s1.context, s0.context);
});

pure.run();
