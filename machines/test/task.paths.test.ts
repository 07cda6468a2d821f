// taskMachine: every state reached and every transition taken, with paths generated
// by @xstate/graph and replayed on live actors.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SimulatedClock, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { taskMachine } from '../task.machine.ts';
import { turnRunningOf } from '../task-queries.ts';
import { exploreGraph } from './graph-explorer.ts';
import { createCoverage, createDeferredActors } from './util.ts';

const coverage = createCoverage(taskMachine);

function alphabet(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const events: AnyEventObject[] = [
    { type: 'USER_MESSAGE', message: { id: 'm', content: 'open example.com' } },
    { type: 'TAKEOVER', reason: 'mouse' },
    { type: 'RESUME' },
    { type: 'STOP' },
    { type: 'FAIL', error: { code: 'PLUGIN_OFFLINE', message: 'no plugin', retryable: true } },
  ];
  const { context } = snapshot;
  const known = [context.current?.actionId, ...context.pendingActions.map((a: { actionId: string }) => a.actionId)];
  // act-1 may be retried (idempotent), act-2 may not.
  for (const [actionId, actionName] of [
    ['act-1', 'browser_screenshot'],
    ['act-2', 'browser_click'],
  ]) {
    if (!known.includes(actionId)) {
      events.push({
        type: 'ACTION_REQUESTED',
        action: { actionId, actionName, params: { tabId: 1 }, taskId: 'task-1', clientId: 'p' },
      });
    }
  }
  // The action in flight runs in the task's `action` region: the plugin's events and its deadline.
  const current = context.current as { actionId: string } | null;
  if (current) {
    const actionId = current.actionId;
    events.push(
      { type: 'ACK', actionId },
      { type: 'RESULT', actionId, status: 'success', result: { ok: true } },
      { type: 'RESULT', actionId, status: 'partial', result: { ok: 'some' } },
      {
        type: 'RESULT',
        actionId,
        status: 'error',
        error: { code: 'PLUGIN_TIMEOUT_EXEC', message: 'slow', retryable: true },
      },
      { type: 'RESULT', actionId, status: 'error', error: { code: 'INTERNAL', message: 'bug', retryable: false } },
      { type: 'RESULT', actionId: 'act-9', status: 'success' },
      { type: 'DEADLINE', waitId: context.waitId },
      { type: 'DISPATCH_FAILED', actionId, error: { code: 'PLUGIN_OFFLINE', message: 'no socket' } },
      { type: 'PLUGIN_GONE', actionId },
      { type: 'CANCEL', reason: 'canceled by its caller' },
      { type: 'RESTORED' },
    );
  }
  // A page preparation runs in the task actor itself: its outcome is one PAGE_PREP_DONE.
  const prep = context.pagePreps.find((p: { prepId: string }) => p.prepId === 'prep-1');
  if (!prep) events.push({ type: 'PAGE_PREP_REQUESTED', prepId: 'prep-1', input: { taskId: 'task-1', tabId: 1 } });
  else events.push({ type: 'PAGE_PREP_DONE', prepId: 'prep-1', output: { status: 'ok', warnings: [], missing: [] } });
  if (snapshot.children.turn && turnRunningOf(snapshot)) {
    events.push({ type: 'xstate.done.actor.turn', output: { reply: 'done' }, actorId: 'turn' });
    events.push({
      type: 'xstate.error.actor.turn',
      error: { code: 'PAGE_PREP_FAILED', message: 'both failed', retryable: true },
      actorId: 'turn',
    });
  }
  return events;
}

const serializeState = (s: AnyMachineSnapshot) => {
  const c = s.context.current;
  return JSON.stringify([
    s.value,
    s.status,
    Math.min(s.context.queue.length, 2),
    c ? [c.actionId, c.attempts, c.dispatchId, c.lastAnswer?.status, c.lastAnswer?.error?.code] : null,
    s.context.pendingActions.map((a: { actionId: string }) => a.actionId),
    s.context.pagePreps,
  ]);
};

function live() {
  const deferred = createDeferredActors();
  return {
    machine: taskMachine.provide({
      actors: { runTurn: deferred.logic() },
      // The preparation's outcome is an event of the alphabet (PAGE_PREP_DONE), the plugin's
      // answers too; a DEADLINE is the clock reaching the armed wait (util.ts playStep).
      actions: { preparePage: () => {}, sendFrame: () => {} },
    }),
    clock: new SimulatedClock(),
    deferred,
  };
}

const paths = suite('taskMachine paths (@xstate/graph, replayed live)');

paths('every generated path and one more event from it match the live actor; every state node is reached', async () => {
  const result = await exploreGraph({
    machine: live().machine,
    input: { taskId: 'task-1' },
    events: alphabet,
    serializeState,
    live,
    coverage,
  });
  assert.equal([...result.reachedStateIds].sort(), [
    'task',
    'task.action',
    'task.action.awaitingAck',
    'task.action.executing',
    'task.action.idle',
    'task.action.retryWait',
    'task.pluginUi',
    'task.pluginUi.hidden',
    'task.pluginUi.idle',
    'task.pluginUi.ongoing',
    'task.pluginUi.takeover',
    'task.status',
    'task.status.completed',
    'task.status.created',
    'task.status.error',
    'task.status.ongoing',
    'task.status.ongoing.idle',
    'task.status.ongoing.takeover',
    'task.status.running',
    'task.status.running.active',
    'task.status.running.takeover',
  ]);
  assert.ok(result.paths >= 20, `${result.paths} paths`);
});

paths.run();

const covered = suite('taskMachine coverage');

covered('every state was active and every transition was taken on a live actor', () => {
  assert.equal(coverage.missingStates(), [], 'states never reached');
  assert.equal(coverage.missingTransitions(), [], 'transitions never taken');
});

covered.run();
