// actionMachine as pure steps (initialTransition / transition): the frame written on entry of an
// attempt, its timers armed and canceled, settling, and events it does not know.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { initialTransition, transition } from 'xstate';
import { actionMachine, type ActionInput, type ActionOutput } from '../action.machine.ts';

const pure = suite('actionMachine pure steps (initialTransition / transition)');

const pureInput: ActionInput = {
  actionId: 'act-9',
  actionName: 'browser_click',
  params: { tabId: 5, clickId: 3 },
  taskId: 'task-1',
  clientId: 'plugin-abc',
};

pure('the initial step runs sendFrame with the frame for attempt 1, arms T_ack and waits in awaitingAck', () => {
  const [snapshot, actions] = initialTransition(actionMachine, pureInput);
  assert.equal(snapshot.value, { attempt: 'awaitingAck' });
  assert.is(snapshot.context.attempts, 1);
  assert.is(snapshot.context.execTimeoutMs, 5_000);
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
    'no child actor per attempt',
  );
  assert.equal(Object.keys(snapshot.children), []);
  const timer = actions.find((a) => a.type === 'xstate.raise');
  assert.equal(
    [(timer?.params as { delay?: number }).delay, (timer?.params as { event?: { type?: string } }).event?.type],
    [1_500, 'xstate.after.ACK_TIMEOUT.action.attempt.awaitingAck'],
  );
});

pure('DISPATCH_FAILED settles at once and cancels T_ack', () => {
  const [s0] = initialTransition(actionMachine, pureInput);
  const [s1, a1] = transition(actionMachine, s0, {
    type: 'DISPATCH_FAILED',
    error: { code: 'PLUGIN_OFFLINE', message: 'gone' },
  });
  assert.is(s1.status, 'done');
  assert.equal((s1.output as ActionOutput).error, { code: 'PLUGIN_OFFLINE', message: 'gone', retryable: true });
  assert.ok(
    a1.some((a) => (a.type as string) === 'xstate.cancel'),
    'the ack timer is canceled',
  );
});

pure('ACK arms EXEC_TIMEOUT with the table value; RESULT settles with an output', () => {
  const [s0] = initialTransition(actionMachine, pureInput);
  const [s1, a1] = transition(actionMachine, s0, { type: 'ACK' });
  assert.equal(s1.value, { attempt: 'executing' });
  const timer = a1.find((a) => a.type === 'xstate.raise');
  assert.is((timer?.params as { delay?: number }).delay, 5_000);
  const [s2, a2] = transition(actionMachine, s1, { type: 'RESULT', status: 'success', result: { clicked: true } });
  assert.is(s2.status, 'done');
  assert.equal((s2.output as ActionOutput).result, { clicked: true });
  assert.ok(
    a2.some((a) => (a.type as string) === 'xstate.cancel'),
    'the exec timer is canceled',
  );
});

pure('unknown events change nothing', () => {
  const [s0] = initialTransition(actionMachine, pureInput);
  const [s1] = transition(actionMachine, s0, { type: 'NOPE' } as never);
  assert.equal(s1.value, s0.value);
  assert.equal(s1.context, s0.context);
});

pure.run();
