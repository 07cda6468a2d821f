// actionMachine: every state reached and every transition taken, with paths generated
// by @xstate/graph and replayed on live actors (SimulatedClock, no real waits).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SimulatedClock, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { actionMachine, type ActionInput } from '../action.machine.ts';
import { exploreGraph } from './graph-explorer.ts';
import { createCoverage, createDeferredActors } from './util.ts';

const coverage = createCoverage(actionMachine);

const retryableError = { code: 'PLUGIN_TIMEOUT_EXEC', message: 'slow page', retryable: true };
const otherRetryableError = { code: 'CDP_UNAVAILABLE', message: 'debugger busy', retryable: true };

/**
 * Every event the action actor can receive. DISPATCH_FAILED is what the runtime's `sendFrame`
 * sends the actor when a frame cannot be written; here it is sent from outside, the same event
 * on the same actor (the live `sendFrame` only records the frame, as the pure model runs no
 * action). `dispatching` is transient (the frame is written on entry), so no delayed event of
 * its own.
 */
function alphabet(_snapshot: AnyMachineSnapshot): AnyEventObject[] {
  return [
    { type: 'ACK' },
    {
      type: 'DISPATCH_FAILED',
      error: { code: 'PLUGIN_OFFLINE', message: 'no socket for plugin-abc', retryable: true },
    },
    {
      type: 'DISPATCH_FAILED',
      error: { code: 'PLUGIN_TIMEOUT_ACK', message: 'reselect or reconnect the plugin', retryable: true },
    },
    { type: 'RESULT', status: 'success', result: { artifactId: 'art-1' } },
    { type: 'RESULT', status: 'partial', result: { warnings: ['no full page'] } },
    { type: 'RESULT', status: 'error', error: retryableError },
    { type: 'RESULT', status: 'error', error: otherRetryableError },
    { type: 'RESULT', status: 'error', error: { code: 'INVALID_TARGET', message: 'gone', retryable: false } },
    { type: 'PLUGIN_GONE', reason: 'socket closed' },
    { type: 'CANCEL', reason: 'stopped' },
    { type: 'RESTORED' },
    { type: 'xstate.after.ACK_TIMEOUT.action.attempt.awaitingAck' },
    { type: 'xstate.after.EXEC_TIMEOUT.action.attempt.executing' },
    { type: 'xstate.after.RETRY_BACKOFF.action.retryWait' },
  ];
}

const serializeState = (s: AnyMachineSnapshot) =>
  JSON.stringify([
    s.value,
    s.status,
    s.context.attempts,
    s.context.lastAnswer ?? null,
    s.context.timedOut ?? null,
    s.context.error?.code ?? null,
  ]);

/** Frames written by every live actor, as [actionId, attempt]. */
const frames: Array<[string, number]> = [];

function live() {
  // No promise actor to drive any more: the harness's deferred actors stay unused.
  const deferred = createDeferredActors();
  const machine = actionMachine.provide({
    actions: { sendFrame: (_, frame) => void frames.push([frame.actionId, frame.attempt]) },
  });
  return { machine, clock: new SimulatedClock(), deferred };
}

const inputs: Record<string, ActionInput> = {
  'idempotent browser_screenshot': {
    actionId: 'act-001',
    actionName: 'browser_screenshot',
    params: { tabId: 123 },
    taskId: 'task-1',
    clientId: 'plugin-abc',
  },
  'non-idempotent browser_click': {
    actionId: 'act-002',
    actionName: 'browser_click',
    params: { tabId: 123, clickId: 7 },
    taskId: 'task-1',
    clientId: 'plugin-abc',
  },
};

const paths = suite('actionMachine paths (@xstate/graph, replayed live)');

for (const [name, input] of Object.entries(inputs)) {
  paths(`${name}: every generated path and one more event from it match the live actor`, async () => {
    const result = await exploreGraph({
      machine: live().machine,
      input,
      events: alphabet,
      serializeState,
      live,
      coverage,
    });
    assert.ok(result.paths > 10, `only ${result.paths} paths`);
    assert.ok(result.replays > result.paths);
  });
}

paths(
  'the generated paths reach every resting state node; dispatching is entered on every attempt and left in the same step',
  async () => {
    const reached = new Set<string>();
    frames.length = 0;
    for (const input of Object.values(inputs)) {
      const result = await exploreGraph({
        machine: live().machine,
        input,
        events: alphabet,
        serializeState,
        live,
        coverage,
      });
      for (const id of result.reachedStateIds) reached.add(id);
    }
    const all = [
      'action',
      'action.attempt',
      'action.attempt.awaitingAck',
      'action.attempt.executing',
      'action.retryWait',
      'action.succeeded',
      'action.partial',
      'action.failed',
      'action.canceled',
    ];
    assert.equal([...reached].sort(), all.sort(), 'no snapshot rests in dispatching');
    assert.ok(
      frames.some(([, attempt]) => attempt === 1) && frames.some(([, attempt]) => attempt === 2),
      'both attempts wrote a frame',
    );
    assert.ok(frames.every(([id, attempt]) => ['act-001', 'act-002'].includes(id) && (attempt === 1 || attempt === 2)));
  },
);

paths.run();

const covered = suite('actionMachine coverage');

covered('every state was active and every transition was taken on a live actor', () => {
  // Includes action.attempt.dispatching (a microstep of every attempt) and its `always`.
  assert.equal(coverage.missingStates(), [], 'states never reached');
  assert.equal(coverage.missingTransitions(), [], 'transitions never taken');
  const counts = coverage.counts();
  assert.ok(counts.transitions >= 20, `suspiciously few transitions: ${counts.transitions}`);
});

covered.run();
