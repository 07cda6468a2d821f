// runMachine behaviour (seed 003 §4.4, §6, §8.6, §10): the concurrency window,
// run status from step states, partial_success thresholds, cooperative cancel,
// RUN_TIMEOUT, final terminal states, pure steps.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, initialTransition, SimulatedClock, transition } from 'xstate';
import { runMachine, type RunInput, type RunOutput, type RunStepInput } from '../run.machine.ts';
import { decideRunOutcome } from '../run-outcome.ts';
import { cancelRequestedOf, runProgressOf, runStatusOf } from '../run-queries.ts';
import { createDeferredActors, settle } from './util.ts';

function start(overrides: Partial<RunInput> = {}, stepCount = 3) {
  const clock = new SimulatedClock();
  const deferred = createDeferredActors();
  const machine = runMachine.provide({ actors: { runStep: deferred.logic() } });
  const input: RunInput = {
    runId: 'run_123',
    templateId: 'batch_extract_pages',
    steps: Array.from({ length: stepCount }, (_, i) => ({
      stepId: `s${i}`,
      input: { url: `https://example.com/${i}` },
    })),
    ...overrides,
  };
  const actor = createActor(machine, { clock, input }).start();
  const started = () => deferred.calls.map((c) => (c.input as RunStepInput).stepId);
  const statuses = () => actor.getSnapshot().context.steps.map((s) => s.status);
  const finish = async (index: number, outcome: 'ok' | { code: string; message: string } = 'ok') => {
    if (outcome === 'ok') deferred.resolve(`step-${index}`, { title: `Page ${index}` });
    else deferred.reject(`step-${index}`, outcome);
    await settle();
  };
  const output = () => actor.getSnapshot().output as RunOutput;
  return { actor, clock, deferred, started, statuses, finish, output, status: () => runStatusOf(actor.getSnapshot()) };
}

const navTimeout = { code: 'NAVIGATION_TIMEOUT', message: 'took too long' };

const steps = suite('runMachine steps and concurrency window');

steps('queued until START; steps run one at a time by default', async () => {
  const t = start();
  assert.is(t.status(), 'queued');
  assert.equal(t.started(), []);
  t.actor.send({ type: 'START' });
  assert.equal(t.started(), ['s0']);
  assert.equal(t.statuses(), ['running', 'pending', 'pending']);
  await t.finish(0);
  assert.equal(t.started(), ['s0', 's1']);
  await t.finish(1);
  assert.equal(runProgressOf(t.actor.getSnapshot()), { totalSteps: 3, doneSteps: 2 });
  await t.finish(2);
  assert.is(t.status(), 'succeeded');
  assert.equal(t.output().summary, { total: 3, pending: 0, running: 0, succeeded: 3, failed: 0, skipped: 0 });
  assert.equal(t.output().steps[1], {
    stepId: 's1',
    input: { url: 'https://example.com/1' },
    status: 'succeeded',
    output: { title: 'Page 1' },
  });
});

steps('a window of 2 never runs more than 2 steps and slides as steps finish', async () => {
  const t = start({ concurrency: 2 }, 5);
  t.actor.send({ type: 'START' });
  assert.equal(t.statuses(), ['running', 'running', 'pending', 'pending', 'pending']);
  await t.finish(1);
  assert.equal(t.statuses(), ['running', 'succeeded', 'running', 'pending', 'pending']);
  await t.finish(0, navTimeout);
  assert.equal(t.statuses(), ['failed', 'succeeded', 'running', 'running', 'pending']);
  assert.equal(t.deferred.calls[3]?.input, {
    runId: 'run_123',
    templateId: 'batch_extract_pages',
    stepId: 's3',
    index: 3,
    input: { url: 'https://example.com/3' },
  });
});

steps('an empty run succeeds at once', () => {
  const t = start({}, 0);
  t.actor.send({ type: 'START' });
  assert.is(t.status(), 'succeeded');
});

steps.run();

const outcome = suite('runMachine outcome (seed 003 §6)');

outcome('failed steps + partial support + ratio >= threshold -> partial_success', async () => {
  const t = start({ supportsPartialSuccess: true });
  t.actor.send({ type: 'START' });
  await t.finish(0);
  await t.finish(1, navTimeout);
  await t.finish(2);
  assert.is(t.status(), 'partial_success');
  assert.is(t.output().error, undefined);
});

outcome('ratio below the threshold -> failed with STEP_EXECUTION_FAILED naming the step', async () => {
  const t = start({ supportsPartialSuccess: true });
  t.actor.send({ type: 'START' });
  await t.finish(0, navTimeout);
  await t.finish(1, { code: 'ELEMENT_NOT_FOUND', message: 'x' });
  await t.finish(2);
  assert.is(t.status(), 'failed');
  assert.equal(t.output().error, {
    code: 'STEP_EXECUTION_FAILED',
    message: 'step failed',
    details: { runId: 'run_123', failedStep: 's0', stepErrorCode: 'NAVIGATION_TIMEOUT' },
  });
});

outcome('a template without partial support fails on any failed step', async () => {
  const t = start({ templateId: 'login_keep_session', supportsPartialSuccess: false });
  t.actor.send({ type: 'START' });
  await t.finish(0);
  await t.finish(1);
  await t.finish(2, navTimeout);
  assert.is(t.status(), 'failed');
});

outcome('the template threshold wins over the default', () => {
  const steps = (ok: number, failed: number) => [
    ...Array.from({ length: ok }, () => ({ status: 'succeeded' as const })),
    ...Array.from({ length: failed }, () => ({ status: 'failed' as const })),
  ];
  const policy = (threshold: number) => ({ supportsPartialSuccess: true, threshold });
  assert.is(decideRunOutcome(steps(1, 1), policy(0.5)), 'partial_success', 'exactly the threshold is enough');
  assert.is(decideRunOutcome(steps(3, 1), policy(0.8)), 'failed');
  assert.is(decideRunOutcome(steps(3, 1), policy(0.75)), 'partial_success');
  assert.is(decideRunOutcome(steps(0, 2), policy(0)), 'failed', 'never partial with no success');
  assert.is(decideRunOutcome([{ status: 'running' }], policy(0.5)), null);
});

outcome('terminal states are final: later events change nothing', async () => {
  const t = start({}, 1);
  t.actor.send({ type: 'START' });
  await t.finish(0);
  const before = t.actor.getSnapshot();
  t.actor.send({ type: 'CANCEL' });
  t.actor.send({ type: 'START' });
  assert.is(t.actor.getSnapshot(), before);
  assert.is(before.status, 'done');
});

outcome.run();

const cancel = suite('runMachine cooperative cancel (seed 003 §4.4)');

cancel('cancel between steps: the running step finishes, pending steps are skipped, then canceled', async () => {
  const t = start({ concurrency: 2 }, 5);
  t.actor.send({ type: 'START' });
  t.actor.send({ type: 'CANCEL' });
  assert.equal(t.statuses(), ['running', 'running', 'skipped', 'skipped', 'skipped']);
  assert.is(t.status(), 'running', 'currentStatus stays running while a step finishes');
  assert.is(cancelRequestedOf(t.actor.getSnapshot()), true);
  assert.equal(t.deferred.aborted, [], 'running steps are not interrupted');
  await t.finish(0);
  assert.equal(t.started(), ['s0', 's1'], 'no new step starts after cancel');
  assert.is(t.status(), 'running');
  await t.finish(1, navTimeout);
  assert.is(t.status(), 'canceled');
  assert.equal(t.output().summary, { total: 5, pending: 0, running: 0, succeeded: 1, failed: 1, skipped: 3 });
  assert.equal(t.output().error, { code: 'RUN_CANCELED', message: 'the run was canceled' });
});

cancel('cancel while queued: canceled at once, every step skipped, nothing started', () => {
  const t = start();
  t.actor.send({ type: 'CANCEL' });
  assert.is(t.status(), 'canceled');
  assert.equal(t.statuses(), ['skipped', 'skipped', 'skipped']);
  assert.equal(t.started(), []);
});

cancel.run();

const timeout = suite('runMachine RUN_TIMEOUT');

timeout('the run times out after timeoutMs from START, not counting the queue', async () => {
  const t = start({ timeoutMs: 120_000, concurrency: 2 });
  t.clock.increment(500_000);
  assert.is(t.status(), 'queued');
  t.actor.send({ type: 'START' });
  await t.finish(0);
  t.clock.increment(119_999);
  assert.is(t.status(), 'running');
  t.clock.increment(1);
  await settle();
  assert.is(t.status(), 'failed');
  assert.equal(t.output().error, {
    code: 'RUN_TIMEOUT',
    message: 'the run exceeded 120000 ms',
    details: { runId: 'run_123' },
  });
  assert.equal(t.statuses(), ['succeeded', 'failed', 'failed']);
  assert.equal(t.deferred.aborted.sort(), ['step-1', 'step-2'], 'running steps are stopped with the run');
});

timeout('the default timeout is the runtime maximum, 900 s', async () => {
  const t = start();
  t.actor.send({ type: 'START' });
  t.clock.increment(899_999);
  assert.is(t.status(), 'running');
  t.clock.increment(1);
  assert.is(t.status(), 'failed');
  assert.equal(t.statuses(), ['failed', 'skipped', 'skipped']);
});

timeout.run();

const pure = suite('runMachine pure steps');

pure('initialTransition: queued, steps pending; START spawns the window', () => {
  const steps = [{ stepId: 'a' }, { stepId: 'b' }, { stepId: 'c' }];
  const input: RunInput = { runId: 'r', templateId: 'multi_tab_compare', steps, concurrency: 2 };
  const [s0, a0] = initialTransition(runMachine, input);
  assert.is(s0.value, 'queued');
  assert.equal(a0, []);
  const [s1, a1] = transition(runMachine, s0, { type: 'START' });
  assert.equal(s1.value, { running: 'stepping' });
  const spawned = a1
    .filter((a) => a.type === 'xstate.spawnChild')
    .map((a) => (a.params as unknown as { id: string }).id);
  assert.equal(spawned, ['step-0', 'step-1']);
  const timer = a1.find((a) => a.type === 'xstate.raise');
  assert.is((timer?.params as { delay?: number }).delay, 900_000);
});

pure('bad numbers in the input fall back to defaults', () => {
  const [s] = initialTransition(runMachine, {
    runId: 'r',
    templateId: 't',
    steps: [],
    concurrency: 0,
    partialSuccessThreshold: 7,
    timeoutMs: -1,
  });
  assert.equal([s.context.concurrency, s.context.partialSuccessThreshold, s.context.timeoutMs], [1, 0.5, 900_000]);
});

pure.run();
