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
 * Every event the action actor can receive. START only when idle (the task actor starts one
 * action at a time), with the path's input; DEADLINE only for the current wait (the live actor
 * gets it from its armed deadline: the clock is moved by the wait's length, see util.ts
 * playStep). DISPATCH_FAILED is what the runtime's `sendFrame` sends the actor when a frame
 * cannot be written; here it is sent from outside, the same event on the same actor (the live
 * `sendFrame` only records the frame, as the pure model runs no action).
 */
function alphabet(snapshot: AnyMachineSnapshot, input: ActionInput): AnyEventObject[] {
  if (snapshot.value === 'idle') return [{ type: 'START', action: input }];
  return [
    { type: 'ACK' },
    { type: 'ACK', actionId: 'act-other' },
    {
      type: 'DISPATCH_FAILED',
      error: { code: 'PLUGIN_OFFLINE', message: 'no socket for plugin-abc', retryable: true },
    },
    {
      type: 'DISPATCH_FAILED',
      error: { code: 'PLUGIN_TIMEOUT_ACK', message: 'reselect or reconnect the plugin', retryable: true },
    },
    { type: 'RESULT', status: 'success', result: { artifactId: 'art-1' } },
    { type: 'RESULT', actionId: 'act-other', status: 'success', result: { artifactId: 'art-0' } },
    { type: 'RESULT', status: 'partial', result: { warnings: ['no full page'] } },
    { type: 'RESULT', status: 'error', error: retryableError },
    { type: 'RESULT', status: 'error', error: otherRetryableError },
    { type: 'RESULT', status: 'error', error: { code: 'INVALID_TARGET', message: 'gone', retryable: false } },
    { type: 'PLUGIN_GONE', reason: 'socket closed' },
    { type: 'CANCEL', reason: 'stopped' },
    { type: 'RESTORED' },
    { type: 'DEADLINE', waitId: snapshot.context.waitId },
  ];
}

const serializeState = (s: AnyMachineSnapshot) =>
  JSON.stringify([
    s.value,
    s.status,
    s.context.current?.attempts ?? null,
    s.context.current?.lastAnswer ?? null,
    s.context.current?.timedOut ?? null,
    s.context.current?.error?.code ?? null,
    // Settled once already (the same actor runs the next action): not a new state after that.
    Math.min(s.context.settled, 1),
    s.context.settled > 1 ? null : (s.context.last?.status ?? null),
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
      input: undefined,
      events: (snapshot) => alphabet(snapshot, input),
      serializeState,
      live,
      coverage,
    });
    assert.ok(result.paths > 10, `only ${result.paths} paths`);
    assert.ok(result.replays > result.paths);
  });
}

paths('the generated paths reach every state node; each attempt writes one frame', async () => {
  const reached = new Set<string>();
  frames.length = 0;
  for (const input of Object.values(inputs)) {
    const result = await exploreGraph({
      machine: live().machine,
      input: undefined,
      events: (snapshot) => alphabet(snapshot, input),
      serializeState,
      live,
      coverage,
    });
    for (const id of result.reachedStateIds) reached.add(id);
  }
  const all = ['action', 'action.idle', 'action.awaitingAck', 'action.executing', 'action.retryWait'];
  assert.equal([...reached].sort(), all.sort());
  assert.ok(
    frames.some(([, attempt]) => attempt === 1) && frames.some(([, attempt]) => attempt === 2),
    'both attempts wrote a frame',
  );
  assert.ok(frames.every(([id, attempt]) => ['act-001', 'act-002'].includes(id) && (attempt === 1 || attempt === 2)));
});

paths.run();

const covered = suite('actionMachine coverage');

covered('every state was active and every transition was taken on a live actor', () => {
  assert.equal(coverage.missingStates(), [], 'states never reached');
  assert.equal(coverage.missingTransitions(), [], 'transitions never taken');
  const counts = coverage.counts();
  assert.ok(counts.transitions >= 20, `suspiciously few transitions: ${counts.transitions}`);
});

covered.run();
