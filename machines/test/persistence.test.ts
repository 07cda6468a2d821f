// Persistence for every machine: getPersistedSnapshot() -> JSON -> createActor(m,
// { snapshot }) gives the same state and context, and the restored actor carries on:
// invoked/spawned promise actors are restarted by XState with their input, entry actions
// are not re-run (an action's frame is not written again), and the RESTORED event re-arms
// the current wait (XState drops timers on restore, #5331).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, SimulatedClock, type AnyStateMachine, type Snapshot } from 'xstate';
import { actionMachine, type ActionEvent } from '../action.machine.ts';
import { taskMachine } from '../task.machine.ts';
import type { TurnInput } from '../task-types.ts';
import { taskStatusOf } from '../task-queries.ts';
import { pluginUiMachine } from '../plugin-ui.machine.ts';
import { pagePrepMachine, type CaptureInput, type PagePrepOutput } from '../page-prep.machine.ts';
import { runMachine, type RunOutput, type RunStepInput } from '../run.machine.ts';
import { restoredEvent } from '../restored-event.ts';
import { createDeferredActors, roundTrip, settle } from './util.ts';

/** Persists `actor`, stops it, and restores into a fresh actor with its own clock. */
interface Persistable {
  getPersistedSnapshot(): Snapshot<unknown>;
  getSnapshot(): { value: unknown; context: unknown };
  stop(): void;
}

function persistAndRestore(machine: AnyStateMachine, actor: Persistable) {
  const before = actor.getSnapshot();
  const stored = roundTrip(actor.getPersistedSnapshot());
  actor.stop();
  const clock = new SimulatedClock();
  // Restoring needs no input; the cast drops the typed `input` requirement.
  const restored = createActor(machine, { clock, snapshot: stored } as never);
  restored.start();
  const after = restored.getSnapshot() as { value: unknown; context: unknown };
  assert.equal(after.value, before.value, 'same state after restore');
  assert.equal(after.context, roundTrip(before.context), 'same context after restore');
  return { restored, clock };
}

const persistence = suite('persistence: persist -> JSON -> restore -> continue');

/** The action actor (idle at first) started on one action, as the task actor starts each one. */
function startAction(machine: AnyStateMachine, clock: SimulatedClock, action: Record<string, unknown>) {
  const actor = createActor(machine, { clock }).start();
  actor.send({ type: 'START', action });
  return actor;
}

/** actionMachine with a recording sendFrame: the frames it writes, as [actionId, attempt]. */
function actionWithFrames(transport: (attempt: number) => ActionEvent | undefined = () => undefined) {
  const frames: Array<[string, number]> = [];
  const machine = actionMachine.provide({
    actions: {
      sendFrame: ({ self }, frame) => {
        frames.push([frame.actionId, frame.attempt]);
        const answer = transport(frame.attempt);
        if (answer) self.send(answer);
      },
    },
  });
  return { machine, frames };
}

persistence(
  'actionMachine in executing: same state, no frame re-sent; RESTORED re-arms T_exec; it retries and succeeds',
  async () => {
    const first = actionWithFrames();
    const clock = new SimulatedClock();
    const actor = startAction(first.machine, clock, {
      actionId: 'act-7',
      actionName: 'browser_screenshot',
      params: { tabId: 1 },
      taskId: 't',
      clientId: 'p',
    });
    actor.send({ type: 'ACK' });
    clock.increment(4_000);
    const second = actionWithFrames();
    const { restored, clock: clock2 } = persistAndRestore(second.machine, actor);
    assert.equal(second.frames, [], 'restoring writes no frame: the plugin already has it');
    clock2.increment(60_000);
    assert.equal(restored.getSnapshot().value, 'executing', 'XState restores no timer by itself');
    restored.send(restoredEvent);
    clock2.increment(9_999);
    assert.equal(restored.getSnapshot().value, 'executing');
    clock2.increment(1);
    assert.equal(restored.getSnapshot().value, 'retryWait');
    clock2.increment(1_000);
    assert.equal(second.frames, [['act-7', 2]], 'the retry writes the same actionId as attempt 2');
    assert.equal(restored.getSnapshot().value, 'awaitingAck');
    restored.send({ type: 'ACK' });
    restored.send({ type: 'RESULT', status: 'success', result: { artifactId: 'a' } });
    assert.equal(restored.getSnapshot().context.last?.attempts, 2);
    assert.equal(first.frames, [['act-7', 1]]);
  },
);

persistence('actionMachine just sent: persisted in awaitingAck; RESTORED re-arms T_ack; an ACK goes on', async () => {
  const first = actionWithFrames();
  const actor = startAction(first.machine, new SimulatedClock(), {
    actionId: 'act-8',
    actionName: 'browser_click',
    params: { tabId: 1 },
    taskId: 't',
    clientId: 'p',
  });
  assert.equal(first.frames, [['act-8', 1]]);
  assert.equal((roundTrip(actor.getPersistedSnapshot()) as { value?: unknown }).value, 'awaitingAck');
  const second = actionWithFrames();
  const { restored, clock: clock2 } = persistAndRestore(second.machine, actor);
  assert.equal(second.frames, [], 'the frame is not written again on restore');
  restored.send(restoredEvent);
  clock2.increment(1_499);
  assert.equal(restored.getSnapshot().value, 'awaitingAck');
  restored.send({ type: 'ACK' });
  assert.equal(restored.getSnapshot().value, 'executing');
  clock2.increment(5_000);
  assert.equal(restored.getSnapshot().context.last?.error?.code, 'PLUGIN_TIMEOUT_EXEC', 'browser_click is not retried');
});

persistence(
  'actionMachine restored in awaitingAck: T_ack (from RESTORED) runs out, the action fails and is not resent (seed 001 §4.1)',
  async () => {
    const first = actionWithFrames();
    const actor = startAction(first.machine, new SimulatedClock(), {
      actionId: 'act-9',
      actionName: 'browser_dom_index',
      params: { tabId: 1 },
      taskId: 't',
      clientId: 'p',
    });
    const second = actionWithFrames();
    const { restored, clock: clock2 } = persistAndRestore(second.machine, actor);
    restored.send(restoredEvent);
    clock2.increment(1_500);
    assert.equal(restored.getSnapshot().value, 'idle');
    assert.equal(restored.getSnapshot().context.last?.status, 'failed');
    assert.equal(restored.getSnapshot().context.last?.error?.code, 'PLUGIN_TIMEOUT_ACK');
    clock2.increment(1_000);
    assert.equal(second.frames, []);
  },
);

persistence(
  'actionMachine whose frame could not be written: it persists idle with the failed output and restores so, nothing sent',
  () => {
    const first = actionWithFrames(() => ({
      type: 'DISPATCH_FAILED',
      error: { code: 'PLUGIN_OFFLINE', message: 'no socket', retryable: true },
    }));
    const actor = startAction(first.machine, new SimulatedClock(), {
      actionId: 'act-10',
      actionName: 'browser_click',
      params: { tabId: 1 },
      taskId: 't',
      clientId: 'p',
    });
    const stored = roundTrip(actor.getPersistedSnapshot());
    const second = actionWithFrames();
    const restored = createActor(second.machine, { clock: new SimulatedClock(), snapshot: stored } as never).start();
    assert.equal([restored.getSnapshot().status, restored.getSnapshot().value], ['active', 'idle']);
    assert.equal(restored.getSnapshot().context.last?.error, {
      code: 'PLUGIN_OFFLINE',
      message: 'no socket',
      retryable: true,
    });
    assert.equal(second.frames, []);
  },
);

persistence('taskMachine in running.takeover with a queue: the turn resumes, RESUME and the queue work', async () => {
  const first = createDeferredActors();
  const actor = createActor(taskMachine.provide({ actors: { runTurn: first.logic() } }), {
    input: { taskId: 'task-1' },
  });
  actor.start();
  actor.send({ type: 'USER_MESSAGE', message: { id: 'm1', content: 'one' } });
  actor.send({ type: 'TAKEOVER' });
  actor.send({ type: 'USER_MESSAGE', message: { id: 'm2', content: 'two' } });
  const second = createDeferredActors();
  const { restored } = persistAndRestore(taskMachine.provide({ actors: { runTurn: second.logic() } }), actor);
  assert.is(taskStatusOf(restored.getSnapshot()), 'takeover');
  assert.equal((second.calls[0]?.input as TurnInput).message.id, 'm1', 'the turn is restarted with its message');
  restored.send({ type: 'RESUME' });
  second.resolve('turn');
  await settle();
  assert.equal(
    second.calls.map((c) => (c.input as TurnInput).message.id),
    ['m1', 'm2'],
  );
  assert.is(taskStatusOf(restored.getSnapshot()), 'running');
});

persistence('pluginUiMachine in takeover: RESUME continues to ongoing', () => {
  const actor = createActor(pluginUiMachine).start();
  actor.send({ type: 'TASK_STATUS', status: 'running', taskId: 'task-1' });
  actor.send({ type: 'ACTION_STARTED', actionId: 'a1' });
  actor.send({ type: 'USER_INPUT' });
  const { restored } = persistAndRestore(pluginUiMachine, actor);
  restored.send({ type: 'RESUME' });
  assert.is(restored.getSnapshot().value, 'ongoing');
  assert.is(restored.getSnapshot().context.taskId, 'task-1');
});

persistence('pagePrepMachine with one region in backoff: capture restarts, RESTORED re-arms the backoff', async () => {
  const first = createDeferredActors();
  const clock = new SimulatedClock();
  const provide = (d: ReturnType<typeof createDeferredActors>) =>
    pagePrepMachine.provide({ actors: { captureScreenshot: d.logic(), extractReadability: d.logic() } });
  const actor = createActor(provide(first), { clock, input: { taskId: 't', tabId: 3 } }).start();
  first.reject('captureScreenshot', { code: 'PLUGIN_TIMEOUT_EXEC', message: 'slow', retryable: true });
  await settle();
  const second = createDeferredActors();
  const { restored, clock: clock2 } = persistAndRestore(provide(second), actor);
  assert.equal(
    second.calls.map((c) => [c.id, (c.input as CaptureInput).attempt]),
    [['extractReadability', 1]],
  );
  restored.send(restoredEvent);
  clock2.increment(500);
  await settle();
  assert.equal(
    second.calls.map((c) => [c.id, (c.input as CaptureInput).attempt]),
    [
      ['extractReadability', 1],
      ['captureScreenshot', 2],
    ],
  );
  second.resolve('captureScreenshot', { artifactId: 'a', url: 'u', width: 1, height: 1 });
  second.resolve('extractReadability', { text: 'hi' });
  await settle();
  assert.is((restored.getSnapshot().output as PagePrepOutput).status, 'ok');
});

persistence('runMachine mid-run: running steps restart with their input and the run completes', async () => {
  const first = createDeferredActors();
  const clock = new SimulatedClock();
  const input = {
    runId: 'run_1',
    templateId: 'batch_extract_pages',
    steps: [{ stepId: 'a' }, { stepId: 'b' }, { stepId: 'c' }],
    concurrency: 2,
    timeoutMs: 10_000,
  };
  const actor = createActor(runMachine.provide({ actors: { runStep: first.logic() } }), { clock, input }).start();
  actor.send({ type: 'START' });
  first.resolve('step-0', 'A');
  await settle();
  const second = createDeferredActors();
  const { restored, clock: clock2 } = persistAndRestore(
    runMachine.provide({ actors: { runStep: second.logic() } }),
    actor,
  );
  assert.equal(second.calls.map((c) => (c.input as RunStepInput).stepId).sort(), ['b', 'c']);
  restored.send(restoredEvent);
  clock2.increment(9_999);
  assert.equal(restored.getSnapshot().value, { running: 'stepping' });
  second.resolve('step-1', 'B');
  second.resolve('step-2', 'C');
  await settle();
  assert.equal(
    (restored.getSnapshot().output as RunOutput).steps.map((s) => s.output),
    ['A', 'B', 'C'],
  );
  const timed = createActor(runMachine, {
    clock: clock2,
    snapshot: roundTrip(restored.getPersistedSnapshot()),
  } as never);
  timed.start();
  assert.is(timed.getSnapshot().status, 'done', 'a finished run restores finished');
});

persistence.run();
